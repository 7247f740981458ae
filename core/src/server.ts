import { Server, ServerCredentials } from '@grpc/grpc-js';
import { RetailService } from '@retail/contract';
import type { CoreConfig } from './config.js';
import { addHealth, addReflection, createRetailImplementation, grpcServiceDefinition, serviceTokenInterceptor } from './grpc/index.js';
import { type Logger, createLogger } from './logger.js';
import { HANDLERS, type HandlerTable } from './operations/index.js';
import type { PageFetcher } from './operations/types.js';
import { createPageFetcher } from './upstream/index.js';

export interface CoreServerOptions {
  readonly config: CoreConfig;
  /** Where pages come from; defaults to the upstream client built from config. */
  readonly pages?: PageFetcher;
  readonly logger?: Logger;
  /** The operation handlers; defaults to the one table (tests swap single entries). */
  readonly handlers?: HandlerTable;
  /** Budget of a call without a deadline (ms). */
  readonly defaultBudgetMs?: number;
}

export interface CoreServer {
  /** Binds and serves; resolves with the bound port (useful with GRPC_PORT=0). */
  start(): Promise<{ port: number }>;
  /**
   * Graceful stop: health turns NOT_SERVING, in-flight calls get `graceMs` to finish, then the
   * server is forced down and the page fetcher closed.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** The upstream client built from the configuration (engineer B's core/src/upstream). */
function defaultPageFetcher(config: CoreConfig): PageFetcher & { close?(): Promise<void> } {
  return createPageFetcher({
    origin: config.marketplaceOrigin,
    timeoutMs: config.upstreamTimeoutMs,
    reviewsSessionCookie: config.reviewsSessionCookie,
  });
}

export function createCoreServer(options: CoreServerOptions): CoreServer {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const pages = options.pages ?? defaultPageFetcher(config);
  const ownsPages = options.pages === undefined;
  const server = new Server({ interceptors: [serviceTokenInterceptor(config.serviceToken)] });
  server.addService(
    grpcServiceDefinition(RetailService),
    createRetailImplementation({ handlers: options.handlers ?? HANDLERS, pages, logger, defaultBudgetMs: options.defaultBudgetMs }),
  );
  const health = addHealth(server);
  addReflection(server);

  let started = false;
  return {
    start: () =>
      new Promise((resolve, reject) => {
        server.bindAsync(`${config.grpcHost}:${config.grpcPort}`, ServerCredentials.createInsecure(), (error, port) => {
          if (error) {
            reject(error);
            return;
          }
          started = true;
          logger.info({ host: config.grpcHost, port, upstream: config.marketplaceOrigin ?? 'marketplace' }, 'core listening');
          resolve({ port });
        });
      }),
    stop: async ({ graceMs = 10_000 } = {}) => {
      health.setServing(false);
      if (started) {
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => {
            logger.warn({ graceMs }, 'calls still running after the grace period; forcing shutdown');
            server.forceShutdown();
            resolve();
          }, graceMs);
          force.unref();
          server.tryShutdown(() => {
            clearTimeout(force);
            resolve();
          });
        });
      } else {
        server.forceShutdown();
      }
      const closable = pages as PageFetcher & { close?(): Promise<void> };
      if (ownsPages && typeof closable.close === 'function') await closable.close();
      logger.info('core stopped');
    },
  };
}
