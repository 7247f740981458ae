// Loaded with the server's gRPC parts: protobuf-es encodes strings through Buffer from then on.
import './text-encoding.js';
export { addHealth, HEALTH_SERVICES, type HealthReporter } from './health.js';
export { serviceTokenInterceptor } from './auth.js';
export { coreErrorStatus, errorDetailMetadata, toCoreError } from './status.js';
export { createRetailImplementation, type DispatchOptions } from './dispatch.js';
export { DEFAULT_CALL_BUDGET_MS } from './call-signal.js';
