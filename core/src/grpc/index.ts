export { grpcServiceDefinition } from './service-definition.js';
export { addReflection } from './reflection.js';
export { addHealth, HEALTH_SERVICES, type HealthReporter } from './health.js';
export { createTokenCheck, serviceTokenInterceptor } from './auth.js';
export { coreErrorStatus, errorDetailMetadata, toCoreError } from './status.js';
export { createRetailImplementation, type DispatchOptions } from './dispatch.js';
export { DEFAULT_CALL_BUDGET_MS } from './call-signal.js';
