import { randomBytes } from 'node:crypto';
import { blankToUndefined, EnvironmentError, environmentProblems } from '@retail/contract/environment';
import { serviceTokenSchema } from '@retail/core';
import { loadWatcherConfig, type WatcherConfig } from '@retail/watcher/config';
import { z } from 'zod';
import { coalesceSetting, wholeNumber } from '@retail/gateway-shared/gateway-settings';
import { DEFAULT_BATCH_DEADLINE_MS } from '@retail/gateway-shared/core-client';

/** Settings of the one-process composition (`npm start`), read once from the environment. */
export interface AppConfig {
  readonly host: string;
  readonly port: number;
  /** gRPC port of the in-process core; 0 picks a free one. */
  readonly grpcPort: number;
  readonly serviceToken: string;
  readonly marketplaceOrigin?: string;
  readonly redisUrl?: string;
  readonly coreDeadlineMs: number;
  /** CORE_BATCH_DEADLINE_MS: deadline of a whole batch stream (default 30000). */
  readonly coreBatchDeadlineMs: number;
  /** CORE_COALESCE: the gateways send one event-loop turn's lookups as one BatchLookup (default true). */
  readonly coreCoalesce: boolean;
  /** Units granted to the development key printed at start. */
  readonly devUnits: number;
  /**
   * The in-process watcher: its WatchService on a loopback port (WATCHER_GRPC_PORT, default 0 = a
   * free one), PGlite in WATCHER_DATA_DIR unless DATABASE_URL, the in-memory job system unless a
   * Redis URL is set. Its core address is the in-process core's, known only once it listens.
   */
  readonly watcher: WatcherConfig;
}

const AppEnvSchema = z.object({
  HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
  PORT: z.preprocess(blankToUndefined, wholeNumber(0, 65535).default(8080)),
  GRPC_PORT: z.preprocess(blankToUndefined, wholeNumber(0, 65535).default(50051)),
  // In one process the token never leaves the machine; a fresh random one per start is enough.
  SERVICE_TOKEN: z.preprocess(blankToUndefined, serviceTokenSchema.default(() => randomBytes(24).toString('base64url'))),
  MARKETPLACE_ORIGIN: z.preprocess(blankToUndefined, z.string().optional()),
  REDIS_URL: z.preprocess(blankToUndefined, z.string().optional()),
  LEDGER_REDIS_URL: z.preprocess(blankToUndefined, z.string().optional()),
  CORE_DEADLINE_MS: z.preprocess(blankToUndefined, wholeNumber(1, 600_000).default(10_000)),
  CORE_BATCH_DEADLINE_MS: z.preprocess(blankToUndefined, wholeNumber(1, 600_000).default(DEFAULT_BATCH_DEADLINE_MS)),
  CORE_COALESCE: coalesceSetting,
  DEV_UNITS: z.preprocess(blankToUndefined, wholeNumber(0, Number.MAX_SAFE_INTEGER).default(1000)),
  WATCHER_GRPC_PORT: z.preprocess(blankToUndefined, wholeNumber(0, 65535).default(0)),
});

export class AppConfigError extends EnvironmentError {}

/** Reads `npm start`'s settings; throws AppConfigError naming every bad variable, never its value. */
export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = AppEnvSchema.safeParse(env);
  if (!parsed.success) throw new AppConfigError('app', environmentProblems(parsed.error.issues));
  const e = parsed.data;
  // The watcher's own variables (store, webhooks, concurrency) are its to check; what one process
  // decides for it (loopback, the shared token, both roles) is set here. PORT and HOST are the
  // router's: the in-process watcher serves no probes of its own. Webhooks may go to this machine's
  // loopback unless WEBHOOK_ALLOW_LOOPBACK says otherwise: the service and the person trying it share
  // the machine, and `retail listen` receives there.
  const watcher = loadWatcherConfig({
    ...env,
    WEBHOOK_ALLOW_LOOPBACK: env.WEBHOOK_ALLOW_LOOPBACK?.trim() || 'true',
    WATCHER_ROLE: 'all',
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(e.WATCHER_GRPC_PORT),
    HOST: '127.0.0.1',
    PORT: '0',
    SERVICE_TOKEN: e.SERVICE_TOKEN,
  });
  return {
    host: e.HOST,
    port: e.PORT,
    grpcPort: e.GRPC_PORT,
    serviceToken: e.SERVICE_TOKEN,
    marketplaceOrigin: e.MARKETPLACE_ORIGIN,
    redisUrl: e.REDIS_URL ?? e.LEDGER_REDIS_URL,
    coreDeadlineMs: e.CORE_DEADLINE_MS,
    coreBatchDeadlineMs: e.CORE_BATCH_DEADLINE_MS,
    coreCoalesce: e.CORE_COALESCE,
    devUnits: e.DEV_UNITS,
    watcher,
  };
}
