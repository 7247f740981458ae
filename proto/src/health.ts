/**
 * The core's grpc.health.v1 entry for the marketplace: SERVING when the core reaches it, NOT_SERVING
 * while every host it tried was unreachable, UNKNOWN before its first fetch. Readiness probes ask for
 * the server ('') and never for this entry (docs/resilience.md, Readiness); gateways put it in the
 * body of /readyz, operators ask with grpcurl.
 */
export const MARKETPLACE_HEALTH_SERVICE = 'retail.marketplace';
