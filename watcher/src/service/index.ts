/**
 * The watcher's gRPC API (retail.v1.WatchService): `createWatchService(deps)` builds the handlers
 * (transport-free), `createWatcherGrpcServer({ host, port, serviceToken, service, log })` serves them
 * with the service-token and account check, health and reflection. docs/engineering-watches.md, "The WatchService API".
 */
export { createWatchService, type StreamHandler, type UnaryHandler, type WatchServiceHandlers } from './watch-service.js';
export { createJobService, type JobServiceDeps, type JobServiceHandlers } from './job-service.js';
export { MAX_JOB_ITEMS } from './job-create.js';
export { createWatcherGrpcServer, MAX_REQUEST_BYTES, type WatcherGrpcServer, type WatcherGrpcServerOptions } from './server.js';
export { DEFAULT_MAX_WATCHES_PER_ACCOUNT, DEFAULT_STREAM_POLL_MS, type AccountWatchPlan, type CallContext, type PlanOf, type ServiceLog, type WatchServiceDeps } from './deps.js';
export { watchLimitsFromEnv, createPlanOf, MAX_WATCHES_VARIABLE, type PlanSource } from './limits.js';
export { ACCOUNT_METADATA_KEY } from './auth.js';
export { createLookupResolver, type LookupResolver, type ProductKey, type ProductLookup } from './lookup.js';
export { WatchServiceError } from './errors.js';
