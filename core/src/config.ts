import { blankToUndefined, EnvironmentError, readEnvironment } from '@retail/contract/environment';
import { z } from 'zod';
import { loadResilienceConfig, type ResilienceConfig } from './resilience/config.js';
import { pageArchiveSettings, type PageArchiveSettings } from './archive/archive-settings.js';

/**
 * The core's configuration, read once at start from the environment (names fixed by the
 * deployment: the Helm chart's ConfigMap/Secret set the same variables). Invalid values stop the
 * process with one message listing every bad variable.
 */
export interface CoreConfig {
  /** GRPC_HOST: interface to bind (default 0.0.0.0). */
  readonly grpcHost: string;
  /** GRPC_PORT: port to bind (default 50051; 0 = any free port). */
  readonly grpcPort: number;
  /** SERVICE_TOKEN: required from every caller but health, as `authorization: Bearer <token>`. */
  readonly serviceToken: string;
  /** MARKETPLACE_ORIGIN: send every marketplace request to this origin (the replay server). */
  readonly marketplaceOrigin: string | undefined;
  /** CACHE_REDIS_URL, else REDIS_URL: the page cache; in-memory when neither is set. */
  readonly cacheRedisUrl: string | undefined;
  /** LOG_LEVEL (default info). */
  readonly logLevel: LogLevel;
  /** UPSTREAM_TIMEOUT_MS: longest single marketplace fetch (default 8000). */
  readonly upstreamTimeoutMs: number;
  /** REVIEWS_SESSION_COOKIE: marketplace session cookie for paginated reviews (optional). */
  readonly reviewsSessionCookie: string | undefined;
  /** UPSTREAM_STARTUP_PROBE: one GET of the marketplace (or MARKETPLACE_ORIGIN) at start, logged (default true). */
  readonly startupProbe: boolean;
  /**
   * BATCH_CONCURRENCY: items of one BatchLookup that run at once (default 4, half the default
   * per-host cap, so one batch never takes every slot of a marketplace host from interactive calls).
   */
  readonly batchConcurrency: number;
  /** Retries, breaker, host caps, proxies, page cache and parse pool (resilience/config.ts; docs/resilience.md). */
  readonly resilience: ResilienceConfig;
  /** PAGE_ARCHIVE_* and the hand-off's Redis (archive/archive-settings.ts; docs/page-archive.md). */
  readonly pageArchive: PageArchiveSettings;
}

/** Items of one BatchLookup that run at once unless BATCH_CONCURRENCY says otherwise. */
export const DEFAULT_BATCH_CONCURRENCY = 4;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];


const httpOrigin = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) origin')
  .transform((value) => value.replace(/\/+$/, ''));

const redisUrl = z.string().refine((value) => /^rediss?:\/\//i.test(value), 'must be a redis:// or rediss:// URL');

/** SERVICE_TOKEN's rule, here because the core is what checks it; `npm start` applies it before starting anything. */
export const serviceTokenSchema = z
  .string({ error: 'is required' })
  .min(8, 'must be at least 8 characters')
  .refine((v) => !/\s/.test(v), 'must not contain whitespace');

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const EnvSchema = z.object({
  GRPC_HOST: z.preprocess(blankToUndefined, z.string().default('0.0.0.0')),
  GRPC_PORT: z.preprocess(blankToUndefined, integer(0, 65535).default(50051)),
  SERVICE_TOKEN: z.preprocess(blankToUndefined, serviceTokenSchema),
  MARKETPLACE_ORIGIN: z.preprocess(blankToUndefined, httpOrigin.optional()),
  CACHE_REDIS_URL: z.preprocess(blankToUndefined, redisUrl.optional()),
  REDIS_URL: z.preprocess(blankToUndefined, redisUrl.optional()),
  LOG_LEVEL: z.preprocess((v) => (typeof v === 'string' ? blankToUndefined(v.toLowerCase()) : v), z.enum(LOG_LEVELS).default('info')),
  UPSTREAM_TIMEOUT_MS: z.preprocess(blankToUndefined, integer(100, 120_000).default(8000)),
  REVIEWS_SESSION_COOKIE: z.preprocess(blankToUndefined, z.string().optional()),
  UPSTREAM_STARTUP_PROBE: z.preprocess(blankToUndefined, z.enum(['true', 'false']).default('true')),
  BATCH_CONCURRENCY: z.preprocess(blankToUndefined, integer(1, 100).default(DEFAULT_BATCH_CONCURRENCY)),
});

export class ConfigError extends EnvironmentError {}

/** Reads and validates the core's configuration; throws ConfigError naming every bad variable. */
export function loadCoreConfig(env: Readonly<Record<string, string | undefined>> = process.env): CoreConfig {
  // Values are never echoed: SERVICE_TOKEN and cookies are secrets.
  const { variables: e, resilience, pageArchive } = readEnvironment(EnvSchema.safeParse(env), { resilience: () => loadResilienceConfig(env), pageArchive: () => pageArchiveSettings(env) },
    (problems) => new ConfigError('core', problems));
  return Object.freeze({
    grpcHost: e.GRPC_HOST,
    grpcPort: e.GRPC_PORT,
    serviceToken: e.SERVICE_TOKEN,
    marketplaceOrigin: e.MARKETPLACE_ORIGIN,
    cacheRedisUrl: e.CACHE_REDIS_URL ?? e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    reviewsSessionCookie: e.REVIEWS_SESSION_COOKIE,
    startupProbe: e.UPSTREAM_STARTUP_PROBE === 'true',
    batchConcurrency: e.BATCH_CONCURRENCY,
    resilience,
    pageArchive,
  });
}
