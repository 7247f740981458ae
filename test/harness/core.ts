/**
 * Starts a real core (grpc-js server, real handlers, validation, token) on a free loopback port for
 * tests: `startCore({ marketplaceOrigin })` for the upstream client against the replay server, or
 * `startCore({ pages })` with a test PageFetcher. The token is random unless given.
 */
import { randomBytes } from 'node:crypto';
import { ErrorReason } from '@retail/contract';
import { CoreError, type CoreConfig, type CoreServer, type CoreServerOptions, type HandlerTable, type Logger, type PageFetcher, createCoreServer, createLogger, loadCoreConfig, systemClock } from '@retail/core';

export interface StartCoreOptions {
  /** Service token callers must present; random when omitted. */
  readonly serviceToken?: string;
  /** MARKETPLACE_ORIGIN of the upstream client (the replay server's origin). */
  readonly marketplaceOrigin?: string;
  /** A PageFetcher to use instead of the upstream client. */
  readonly pages?: PageFetcher;
  /** Cached parsed pages and parse pool over `pages` (createPageServices); absent: parsed per call. */
  readonly parsedPages?: CoreServerOptions['parsedPages'];
  readonly parsePool?: CoreServerOptions['parsePool'];
  readonly metrics?: CoreServerOptions['metrics'];
  /** Time of the core's own page stack (cache lifetimes): a test moves it instead of sleeping. */
  readonly clock?: CoreServerOptions['clock'];
  /**
   * Tests never reach the live marketplace by accident: without `marketplaceOrigin` or `pages`
   * every fetch fails with UPSTREAM_ERROR naming the missing prerequisite, unless this is true.
   */
  readonly allowLiveMarketplace?: boolean;
  /** Handler table override (e.g. one handler that throws). */
  readonly handlers?: HandlerTable;
  /** Extra environment (UPSTREAM_TIMEOUT_MS, REVIEWS_SESSION_COOKIE, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Logs are silent unless asked (LOG_LEVEL=debug in the environment also works). */
  readonly logger?: Logger;
}

export interface StartedCore {
  /** host:port for gRPC clients. */
  readonly address: string;
  /** http://host:port for Connect's createGrpcTransport. */
  readonly baseUrl: string;
  readonly port: number;
  readonly token: string;
  readonly config: CoreConfig;
  /** The marketplace's reachability as the core last saw it, and the start-up probe's end (CoreServer). */
  marketplace: CoreServer['marketplace'];
  probed: CoreServer['probed'];
  stop(): Promise<void>;
  /** Same as stop (for harnesses that close everything they started). */
  close(): Promise<void>;
}

export async function startCore(options: StartCoreOptions = {}): Promise<StartedCore> {
  const token = options.serviceToken ?? randomBytes(24).toString('base64url');
  const config = loadCoreConfig({
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    SERVICE_TOKEN: token,
    MARKETPLACE_ORIGIN: options.marketplaceOrigin,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    // Off unless a test asks (env): tests count the replay server's requests.
    UPSTREAM_STARTUP_PROBE: 'false',
    ...options.env,
  });
  const offline = !options.pages && !options.marketplaceOrigin && !options.allowLiveMarketplace;
  const core = createCoreServer({
    config,
    pages: offline ? noMarketplace : options.pages,
    ...(options.parsedPages ? { parsedPages: options.parsedPages } : {}),
    ...(options.parsePool ? { parsePool: options.parsePool } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    handlers: options.handlers,
    logger: options.logger ?? createLogger(config.logLevel),
  });
  const { port } = await core.start();
  const stop = () => core.stop({ graceMs: 2_000 });
  return { address: `127.0.0.1:${port}`, baseUrl: `http://127.0.0.1:${port}`, port, token, config, marketplace: () => core.marketplace(), probed: () => core.probed(), stop, close: stop };
}

/**
 * A core clock a test sets ahead of the system's (`setAhead(HOUR)`): cached pages expire as if that
 * time had passed, so a test reads a page afresh without sleeping past a cache lifetime.
 */
export function createMovableClock(): { clock: NonNullable<StartCoreOptions['clock']>; setAhead(ms: number): void } {
  let aheadMs = 0;
  return {
    clock: { ...systemClock, now: () => Date.now() + aheadMs },
    setAhead: (ms) => void (aheadMs = ms),
  };
}

/** The fetcher of a harness core that was given no marketplace: fails every fetch, saying why. */
const noMarketplace: PageFetcher = {
  fetchPage: async () => {
    throw new CoreError(ErrorReason.UPSTREAM_ERROR, 'no marketplace in this test: the harness core has no MARKETPLACE_ORIGIN (set RETAIL_CORPUS for the replay server)');
  },
};
