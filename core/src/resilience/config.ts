import { availableParallelism } from 'node:os';
import { EnvironmentError } from '@retail/contract/environment';
import { z } from 'zod';
import { DEFAULT_TTL_SECONDS } from '../cache/page-cache.js';
import type { PageKind } from '../pages/types.js';

/**
 * Settings of the resilience layer, the page cache and the parse pool, from the environment (every
 * variable optional; docs/resilience.md lists them with the operator's responsibilities). Kept
 * beside the code it configures; core/src/config.ts may fold it into CoreConfig.
 */
export interface ResilienceConfig {
  readonly retryAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** The least of the deadline a retry must have left to be started. */
  readonly retryMinAttemptMs: number;
  /** Consecutive host failures that open a circuit; 0 = no breaker. */
  readonly breakerFailures: number;
  readonly breakerOpenMs: number;
  /** 0 = no cap. */
  readonly hostConcurrency: number;
  /** Requests per second per host; 0 = no cap. */
  readonly hostRatePerSecond: number;
  readonly hostBurst: number;
  readonly proxies: readonly string[];
  readonly cacheMaxBytes: number;
  readonly cacheTtlSeconds: Readonly<Record<PageKind, number>>;
  readonly cacheNegativeTtlSeconds: number;
  /** Serve-stale-on-upstream-error window; 0 = off. */
  readonly cacheStaleSeconds: number;
  /** Parse worker threads; 0 = parse on the event loop. */
  readonly parseWorkers: number;
}

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const int = (min: number, max: number, fallback: number) => z.preprocess(blank, z.coerce.number().int().min(min).max(max).default(fallback));
const num = (min: number, max: number, fallback: number) => z.preprocess(blank, z.coerce.number().min(min).max(max).default(fallback));

const KINDS = Object.keys(DEFAULT_TTL_SECONDS) as PageKind[];

/** `product=900,search=600` → per-kind TTLs over the defaults. */
const ttlList = z.preprocess(
  blank,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const ttls: Record<PageKind, number> = { ...DEFAULT_TTL_SECONDS };
      for (const pair of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
        const [kind, seconds] = pair.split('=').map((s) => s.trim());
        if (!KINDS.includes(kind as PageKind) || !/^\d+$/.test(seconds ?? '')) {
          ctx.addIssue({ code: 'custom', message: `'${pair}' is not <page kind>=<seconds> (kinds: ${KINDS.join(', ')})` });
          continue;
        }
        ttls[kind as PageKind] = Number(seconds);
      }
      return ttls;
    }),
);

const proxyList = z.preprocess(
  blank,
  z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').map((p) => p.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/[^\s]+$/i, 'each proxy must be an http(s) URL'))),
);

const defaultWorkers = Math.min(4, Math.max(1, availableParallelism() - 1));

/*
 * The rate cap and the breaker protect a real marketplace. With MARKETPLACE_ORIGIN (the replay
 * server: tests, demos) they default off, so a suite that replays five captcha pages in a row does
 * not trip the breaker for the next suite; set them explicitly to exercise them against the replay.
 */
const schemaFor = (replay: boolean) => z.object({
  UPSTREAM_RETRY_ATTEMPTS: int(1, 6, 3),
  UPSTREAM_RETRY_BASE_MS: int(10, 10_000, 200),
  UPSTREAM_RETRY_MAX_MS: int(10, 60_000, 2_000),
  // A retry starts only when at least this much of the call's deadline would remain for it.
  UPSTREAM_RETRY_MIN_ATTEMPT_MS: int(1, 60_000, 50),
  UPSTREAM_BREAKER_FAILURES: int(0, 1_000, replay ? 0 : 5),
  UPSTREAM_BREAKER_OPEN_MS: int(100, 3_600_000, 30_000),
  UPSTREAM_HOST_CONCURRENCY: int(0, 1_000, 8),
  UPSTREAM_HOST_RATE: num(0, 1_000, replay ? 0 : 5),
  UPSTREAM_HOST_BURST: int(1, 1_000, 10),
  UPSTREAM_PROXIES: proxyList,
  CACHE_MAX_BYTES: int(0, 64 * 1024 ** 3, 128 * 1024 ** 2),
  CACHE_TTL_SECONDS: ttlList,
  CACHE_NEGATIVE_TTL_SECONDS: int(0, 86_400, 60),
  CACHE_STALE_SECONDS: int(0, 30 * 86_400, 0),
  PARSE_WORKERS: int(0, 64, defaultWorkers),
});

export class ResilienceConfigError extends EnvironmentError {}

export function loadResilienceConfig(env: Readonly<Record<string, string | undefined>> = process.env): ResilienceConfig {
  const parsed = schemaFor(Boolean(env.MARKETPLACE_ORIGIN?.trim())).safeParse(env);
  if (!parsed.success) {
    // Values are not echoed: proxy URLs may carry credentials.
    throw new ResilienceConfigError('resilience', parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`));
  }
  const e = parsed.data;
  return Object.freeze({
    retryAttempts: e.UPSTREAM_RETRY_ATTEMPTS,
    retryBaseMs: e.UPSTREAM_RETRY_BASE_MS,
    retryMaxMs: Math.max(e.UPSTREAM_RETRY_MAX_MS, e.UPSTREAM_RETRY_BASE_MS),
    retryMinAttemptMs: e.UPSTREAM_RETRY_MIN_ATTEMPT_MS,
    breakerFailures: e.UPSTREAM_BREAKER_FAILURES,
    breakerOpenMs: e.UPSTREAM_BREAKER_OPEN_MS,
    hostConcurrency: e.UPSTREAM_HOST_CONCURRENCY,
    hostRatePerSecond: e.UPSTREAM_HOST_RATE,
    hostBurst: e.UPSTREAM_HOST_BURST,
    proxies: Object.freeze(e.UPSTREAM_PROXIES),
    cacheMaxBytes: e.CACHE_MAX_BYTES,
    cacheTtlSeconds: Object.freeze(e.CACHE_TTL_SECONDS),
    cacheNegativeTtlSeconds: e.CACHE_NEGATIVE_TTL_SECONDS,
    cacheStaleSeconds: e.CACHE_STALE_SECONDS,
    parseWorkers: e.PARSE_WORKERS,
  });
}
