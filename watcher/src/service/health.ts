/**
 * grpc.health.v1 (Check and Watch; exempt from the service token so probes need no secret) for the
 * services the watcher's server serves, as the core serves it for its own (core/src/grpc/health.ts;
 * the watcher may not import the core). Reflection is the contract's (@retail/contract/grpc-reflection).
 */
import type { Server } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

export interface HealthReporter {
  setServing(serving: boolean): void;
}

/** Reports the whole server ('') and each of `services` (their full names), the list reflection shows too. */
export function addHealth(server: Pick<Server, 'addService'>, services: readonly string[]): HealthReporter {
  const names = ['', ...services];
  const health = new HealthImplementation(Object.fromEntries(names.map((name) => [name, 'SERVING'])));
  health.addToServer(server);
  return {
    setServing: (serving) => {
      for (const name of names) health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    },
  };
}
