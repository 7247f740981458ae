/**
 * The console wired from the environment, for its own deployment (main.ts) and for the one-process
 * composition (`npm start`), which passes `defaultSignupMode: 'open'` so development needs no setup.
 */
import type { Router } from 'express';
import type { Database } from '@retail/database/database';
import type { Metering } from '@retail/metering/api';
import type { PlanTable } from '@retail/metering';
import { createCoreClient } from '@retail/gateway-shared/core-client';
import { createClientArchiveApi } from './client-archive-api.js';
import { createClientJobApi } from './client-job-api.js';
import { createClientWatchApi } from './client-watch-api.js';
import { createConsole } from './console.js';
import { loadConsoleConfig, type ConsoleConfig } from './config.js';
import type { ConsoleOptions, SignupMode } from './context.js';
import { createMemoryUserStore } from './memory-store.js';
import { createRecordedUserStore } from './recorded-users.js';
import { createRedisUserStore } from './redis-store.js';
import type { UserStore } from './store.js';
import type { JobApi } from './job-api.js';
import type { ArchiveApi } from './archive-api.js';
import type { WatchApi } from './watch-api.js';

export interface ConsoleFromEnvOptions {
  readonly metering: Metering & { readonly usageHistory?: ConsoleOptions['usageHistory'] };
  /** The plan table in force (MeteringInstance.plans), for the watch form's intervals. */
  readonly plans?: PlanTable;
  /** The watch service for the Watches page; default: over gRPC to WATCHER_ADDRESS when it is set. */
  readonly watches?: WatchApi;
  /** The job service for the Jobs page; default: over gRPC to WATCHER_ADDRESS when it is set. */
  readonly jobs?: JobApi;
  /** The page archive for the Operator view; default: over gRPC to WATCHER_ADDRESS when it is set. */
  readonly archive?: ArchiveApi;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Where users (and their password hashes and accounts) are kept for good: the ledger's database
   * (recorded-users.ts). Without it they live in the session store (Redis or memory) alone.
   */
  readonly database?: Database;
  /** Used when CONSOLE_SIGNUP_MODE is unset (the deployment's default is `closed`). */
  readonly defaultSignupMode?: SignupMode;
  readonly log?: (level: 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
  /** Anything else createConsole accepts (clock, limits, …). */
  readonly overrides?: Partial<ConsoleOptions>;
}

export interface ConsoleDeployment {
  /** Mount at `/console`. */
  readonly router: Router;
  readonly config: ConsoleConfig;
  readonly users: UserStore;
  /** For /readyz: the user store answers. */
  ready(): Promise<boolean>;
  /** Closes the user store (not the metering library, which the caller owns). */
  close(): Promise<void>;
}

/** The WatchApi, JobApi and ArchiveApi over gRPC to the watcher (the console calls no RetailService, so no core address). */
function watcherApis(watcher: NonNullable<ConsoleConfig['watcher']>, metering: Metering): { watches: WatchApi; jobs: JobApi; archive: ArchiveApi } {
  const client = createCoreClient({ address: watcher.address, watcherAddress: watcher.address, serviceToken: watcher.serviceToken });
  return { watches: createClientWatchApi({ client, meter: metering.meter }), jobs: createClientJobApi({ client }), archive: createClientArchiveApi({ client }) };
}

export function createConsoleFromEnv(options: ConsoleFromEnvOptions): ConsoleDeployment {
  const env = options.env ?? process.env;
  const log = options.log ?? ((level, message, detail = {}) => console.error(JSON.stringify({ level, message, ...detail })));
  const config = loadConsoleConfig({
    ...env,
    ...(env.CONSOLE_SIGNUP_MODE || !options.defaultSignupMode ? {} : { CONSOLE_SIGNUP_MODE: options.defaultSignupMode }),
    // A caller that passes its own WatchApi (the one-process composition) owns the watch wiring.
    ...(options.watches ? { WATCHER_ADDRESS: undefined } : {}),
  });
  if (config.sessionSecretGenerated) {
    log('warn', 'CONSOLE_SESSION_SECRET is not set: using a random secret; sessions end with this process and are not shared across replicas');
  }
  const fast = config.redisUrl
    ? createRedisUserStore({ url: config.redisUrl, onError: (error) => log('warn', 'console store: Redis unreachable', { error: error.message }) })
    : createMemoryUserStore();
  const users = options.database ? createRecordedUserStore({ database: options.database, fast }) : fast;
  const fromWatcher = config.watcher ? watcherApis(config.watcher, options.metering) : undefined;
  const watches = options.watches ?? fromWatcher?.watches;
  const jobs = options.jobs ?? fromWatcher?.jobs;
  const archive = options.archive ?? fromWatcher?.archive;
  const router = createConsole({
    metering: options.metering,
    ...(options.metering.usageHistory ? { usageHistory: options.metering.usageHistory } : {}),
    ...(options.plans ? { plans: options.plans } : {}),
    users,
    signupMode: config.signupMode,
    sessionSecret: config.sessionSecret,
    secureCookies: config.secureCookies,
    invites: config.invites,
    log: (message, detail) => log('error', message, detail),
    ...(watches ? { watches } : {}),
    ...(jobs ? { jobs } : {}),
    ...(archive ? { archive } : {}),
    ...options.overrides,
  });
  return {
    router,
    config,
    users,
    ready: () => users.ping().then(() => true, () => false),
    close: () => users.close(),
  };
}
