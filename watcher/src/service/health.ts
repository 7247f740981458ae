/**
 * grpc.health.v1 (Check and Watch; exempt from the service token so probes need no secret) for the
 * WatchService, the JobService and the DataIncidentService, as the core serves it for RetailService (core/src/grpc/health.ts;
 * the watcher may not import the core). Reflection is the contract's (@retail/contract/grpc-reflection).
 */
import type { Server } from '@grpc/grpc-js';
import { DataIncidentService, JobService, WatchService } from '@retail/contract';
import { HealthImplementation } from 'grpc-health-check';

/** Services reported by grpc.health.v1: the whole server (''), the WatchService, the JobService and the DataIncidentService. */
export const HEALTH_SERVICES = ['', WatchService.typeName, JobService.typeName, DataIncidentService.typeName] as const;

export interface HealthReporter {
  setServing(serving: boolean): void;
}

export function addHealth(server: Pick<Server, 'addService'>): HealthReporter {
  const health = new HealthImplementation(Object.fromEntries(HEALTH_SERVICES.map((name) => [name, 'SERVING'])));
  health.addToServer(server);
  return {
    setServing: (serving) => {
      for (const name of HEALTH_SERVICES) health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    },
  };
}
