export { createCoreServer, type CoreServer, type CoreServerOptions } from './server.js';
export { systemClock, type Clock } from './resilience/clock.js';
export { loadCoreConfig, ConfigError, serviceTokenSchema, type CoreConfig, type LogLevel } from './config.js';
export { createLogger, type Logger } from './logger.js';
export { describeReachability, type MarketplaceReachability, type HostReachability } from './outcomes/reachability.js';
export { CoreError, isCoreError, invalidArgument } from './errors.js';
export * as marketplaces from './marketplaces/index.js';
export * as validation from './validation/index.js';
export {
  HANDLERS,
  UNIMPLEMENTED,
  validateRequest,
  type HandlerTable,
  type HandlerFor,
  type ResponseInit,
  type RpcName,
  type ValidatedRequests,
} from './operations/index.js';
export type { OperationContext, OperationHandler } from './operations/types.js';
export type { FetchedPage, PageFetcher, PageKind, PageRequest } from './pages/types.js';
