import { Server, ServerCredentials, setLogger } from '@grpc/grpc-js';
import { grpcLoggerWithoutBindFailure } from '@retail/contract/grpc-bind-log';
import { DataHealthService, PageArchiveService, RetailService } from '@retail/contract';
import type { CoreConfig } from './config.js';
import { grpcServiceDefinition } from '@retail/contract/grpc-service-definition';
import { addReflection } from '@retail/contract/grpc-reflection';
import { stopGrpcServer } from '@retail/contract/grpc-server-stop';
import { addHealth, createRetailImplementation, serviceTokenInterceptor } from './grpc/index.js';
import { createDataHealthImplementation } from './grpc/data-health-service.js';
import { createPageArchiveImplementation } from './grpc/page-archive-service.js';
import type { HealthServices } from './health/health-services.js';
import { type Logger, createLogger } from './logger.js';
import { HANDLERS, type HandlerTable } from './operations/index.js';
import type { ParsedPageSource } from './cache/parsed-pages.js';
import type { PageFetcher } from './pages/types.js';
import type { ParsePool } from './workers/pool.js';
import type { UpstreamMetrics } from './outcomes/metrics.js';
import { createPageServices } from './page-services.js';
import type { MarketplaceReachability, MarketplaceState } from './outcomes/reachability.js';
import { FAILURES, isHostFailure } from './outcomes/causes.js';
import { probeMarketplace, type ProbeResult } from './outcomes/startup-probe.js';
import type { Clock } from './resilience/clock.js';
import type { ResilientPageFetcher } from './resilience/compose.js';
import { createProxyRotation } from './resilience/proxies.js';
import { createPageFetcher } from './upstream/index.js';

export interface CoreServerOptions {
  readonly config: CoreConfig;
  /**
   * Where pages come from; defaults to the page services built from config (upstream client,
   * resilience, page cache, parse pool). A given fetcher without `parsedPages` is read and parsed
   * per call, uncached (tests).
   */
  readonly pages?: PageFetcher;
  /** Cached parsed pages over `pages` (core/src/cache/parsed-pages.ts). */
  readonly parsedPages?: ParsedPageSource;
  /** Parse worker threads (core/src/workers/pool.ts). */
  readonly parsePool?: ParsePool;
  /** Upstream outcome counters (core/src/outcomes/metrics.ts); the page services' own by default. */
  readonly metrics?: UpstreamMetrics;
  readonly logger?: Logger;
  /** The operation handlers; defaults to the one table (tests swap single entries). */
  readonly handlers?: HandlerTable;
  /** Budget of a call without a deadline (ms). */
  readonly defaultBudgetMs?: number;
  /**
   * Time as the page stack the core builds sees it (cache lifetimes, back-off, breaker); the system
   * clock by default. Tests move it to expire cached pages instead of sleeping past a lifetime.
   */
  readonly clock?: Clock;
}

export interface CoreServer {
  /** Binds and serves; resolves with the bound port (useful with GRPC_PORT=0). */
  start(): Promise<{ port: number }>;
  /**
   * Graceful stop: health turns NOT_SERVING, in-flight calls get `graceMs` to finish, then the
   * server is forced down and the page fetcher closed.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /**
   * The marketplace as this core last reached it, each host's latest outcome and circuit
   * (outcomes/reachability.ts). `unknown` with no hosts before any fetch, and for a core given its
   * own `pages`.
   */
  marketplace(): MarketplaceReachability;
  /** Resolves when the start-up probe (UPSTREAM_STARTUP_PROBE) has its answer, or at once when none runs. */
  probed(): Promise<void>;
}

/**
 * The page stack built from the configuration: the upstream client (core/src/upstream) behind the
 * page cache, single-flight, retries, per-host breaker and caps (core/src/resilience, docs/resilience.md).
 */
interface OwnedPageServices extends Pick<CoreServerOptions, 'pages' | 'parsedPages' | 'parsePool' | 'metrics'> {
  readonly resilient: ResilientPageFetcher;
  /** Field health and incidents (core/src/health): only a core that builds its own page stack parses pages it can judge. */
  readonly health: HealthServices;
  probe(signal: AbortSignal): Promise<ProbeResult>;
  close(): Promise<void>;
}

function defaultPageServices(config: CoreConfig, logger: Logger, onReachabilityChange: (state: MarketplaceState) => void, clock: Clock | undefined): OwnedPageServices {
  const proxies = config.resilience.proxies.length > 0 ? createProxyRotation(config.resilience.proxies) : undefined;
  const raw = createPageFetcher({
    origin: config.marketplaceOrigin,
    timeoutMs: config.upstreamTimeoutMs,
    reviewsSessionCookie: config.reviewsSessionCookie,
    ...(proxies ? { proxies } : {}),
  });
  const services = createPageServices({ raw, settings: config.resilience, cacheRedisUrl: config.cacheRedisUrl, pageArchive: config.pageArchive, logger, onReachabilityChange, ...(clock ? { clock } : {}) });
  return {
    resilient: services.resilient,
    health: services.health,
    probe: (signal) => probeMarketplace(raw, { tracker: services.resilient.reachability, timeoutMs: config.upstreamTimeoutMs, signal }),
    pages: services.pages,
    parsedPages: services.parsedPages,
    parsePool: services.parsePool,
    metrics: services.metrics,
    close: async () => {
      await services.close();
      await proxies?.close();
    },
  };
}

export function createCoreServer(options: CoreServerOptions): CoreServer {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  // The health entry of the marketplace follows the tracker; bound once the health service exists.
  let reportMarketplace: (state: MarketplaceState) => void = () => undefined;
  const owned = options.pages === undefined ? defaultPageServices(config, logger, (state) => reportMarketplace(state), options.clock) : undefined;
  const sources = owned ?? options;
  // A caller's parse pool wins over the owned one (a test standing in a fixed parser on a real page stack).
  const parsePool = options.parsePool ?? sources.parsePool;
  const server = new Server({
    interceptors: [serviceTokenInterceptor(config.serviceToken)],
    // channelz keeps per-call counters and traces for a debugging service this server does not
    // expose; off, it stops costing every call (docs/engineering-tests.md, REST: Benchmark).
    'grpc.enable_channelz': 0,
  });
  server.addService(
    grpcServiceDefinition(RetailService),
    createRetailImplementation({
      handlers: options.handlers ?? HANDLERS,
      pages: sources.pages!,
      ...(sources.parsedPages ? { parsedPages: sources.parsedPages } : {}),
      ...(parsePool ? { parsePool } : {}),
      ...(sources.metrics ? { metrics: sources.metrics } : {}),
      logger,
      // The session goes with the fetcher the core built from its configuration; a caller's own
      // page source (tests) says nothing about one.
      reviewsSession: owned !== undefined && Boolean(config.reviewsSessionCookie),
      defaultBudgetMs: options.defaultBudgetMs,
      batchConcurrency: config.batchConcurrency,
      ...(owned ? { incidents: owned.health.incidents } : {}),
    }),
  );
  server.addService(grpcServiceDefinition(DataHealthService), createDataHealthImplementation(owned?.health.incidents, logger));
  server.addService(grpcServiceDefinition(PageArchiveService), createPageArchiveImplementation({ ...(parsePool ? { parsePool } : {}), logger }));
  const health = addHealth(server);
  reportMarketplace = health.setMarketplace;
  addReflection(server, [RetailService, DataHealthService, PageArchiveService]);

  let started = false;
  let probing: Promise<unknown> = Promise.resolve();
  const stopping = new AbortController();
  return {
    start: () =>
      new Promise((resolve, reject) => {
        setLogger(grpcLoggerWithoutBindFailure); // a port clash is said once, by the entry point
        server.bindAsync(`${config.grpcHost}:${config.grpcPort}`, ServerCredentials.createInsecure(), (error, port) => {
          if (error) {
            reject(error);
            return;
          }
          started = true;
          logger.info({ host: config.grpcHost, port, upstream: config.marketplaceOrigin ?? 'marketplace' }, 'core listening');
          if (owned && config.startupProbe) {
            probing = owned.probe(stopping.signal).then((result) => stopping.signal.aborted || logProbe(logger, result, config.marketplaceOrigin));
          }
          resolve({ port });
        });
      }),
    stop: async ({ graceMs = 10_000 } = {}) => {
      health.setServing(false);
      const onForced = () => logger.warn({ graceMs }, 'calls still running after the grace period; forcing shutdown');
      await stopGrpcServer(server, { started, graceMs, onForced });
      stopping.abort();
      await probing;
      await owned?.close();
      logger.info('core stopped');
    },
    marketplace: () => (owned ? owned.resilient.marketplace() : { state: 'unknown', hosts: [] }),
    probed: async () => {
      await probing;
    },
  };
}

/** The start-up probe's result in the log: a warning naming the class (and the private cause) when the marketplace cannot be reached. */
function logProbe(logger: Logger, result: ProbeResult, origin: string | undefined): void {
  const where = { host: result.host, ...(origin ? { origin } : {}), outcome: result.outcome };
  if (!isHostFailure(result.outcome)) {
    logger.info(where, 'marketplace reachable at start-up');
    return;
  }
  const cause = result.error instanceof Error && result.error.cause !== undefined ? result.error.cause : result.error;
  logger.warn({ ...where, err: cause }, `marketplace not usable at start-up: ${FAILURES[result.outcome].label}; lookups fail until it is`);
}
