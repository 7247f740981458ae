import type { Server } from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import { DataHealthService, MARKETPLACE_HEALTH_SERVICE, PageArchiveService, RetailService } from '@retail/contract';
import type { MarketplaceState } from '../outcomes/reachability.js';

/** Services reported by grpc.health.v1: the whole server ('') and every service it serves (RetailService, DataHealthService, PageArchiveService). */
export const HEALTH_SERVICES = ['', RetailService.typeName, DataHealthService.typeName, PageArchiveService.typeName] as const;

/*
 * The marketplace as this core last reached it has its own health entry (MARKETPLACE_HEALTH_SERVICE).
 * Probes (Kubernetes asks for '') never look at it, so an outage of the marketplace does not take the
 * core out of its Service (docs/resilience.md, Readiness); a gateway's /readyz and grpcurl do.
 */
const MARKETPLACE_STATUS: Readonly<Record<MarketplaceState, ServingStatus>> = {
  unknown: 'UNKNOWN',
  reachable: 'SERVING',
  degraded: 'SERVING',
  unreachable: 'NOT_SERVING',
};

export interface HealthReporter {
  setServing(serving: boolean): void;
  setMarketplace(state: MarketplaceState): void;
}

/** grpc.health.v1 (Check and Watch); exempt from the service token so probes need no secret. */
export function addHealth(server: Pick<Server, 'addService'>): HealthReporter {
  const health = new HealthImplementation({ ...Object.fromEntries(HEALTH_SERVICES.map((name) => [name, 'SERVING'])), [MARKETPLACE_HEALTH_SERVICE]: 'UNKNOWN' });
  health.addToServer(server);
  return {
    setServing: (serving) => {
      for (const name of HEALTH_SERVICES) health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    },
    setMarketplace: (state) => health.setStatus(MARKETPLACE_HEALTH_SERVICE, MARKETPLACE_STATUS[state]),
  };
}
