import type { Server } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { RetailService } from '@retail/contract';

/** Services reported by grpc.health.v1: the whole server ('') and RetailService. */
export const HEALTH_SERVICES = ['', RetailService.typeName] as const;

export interface HealthReporter {
  setServing(serving: boolean): void;
}

/** grpc.health.v1 (Check and Watch); exempt from the service token so probes need no secret. */
export function addHealth(server: Pick<Server, 'addService'>): HealthReporter {
  const health = new HealthImplementation(Object.fromEntries(HEALTH_SERVICES.map((name) => [name, 'SERVING'])));
  health.addToServer(server);
  return {
    setServing: (serving) => {
      for (const name of HEALTH_SERVICES) health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    },
  };
}
