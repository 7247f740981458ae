import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES } from '@retail/contract/page-archive-handoff';
import { ConfigError, loadCoreConfig } from './config.js';
import { loadResilienceConfig } from './resilience/config.js';

const TOKEN = 'a-service-token-1234';

describe('loadCoreConfig', () => {
  it('applies defaults', () => {
    expect(loadCoreConfig({ SERVICE_TOKEN: TOKEN })).toEqual({
      grpcHost: '0.0.0.0',
      grpcPort: 50051,
      serviceToken: TOKEN,
      marketplaceOrigin: undefined,
      cacheRedisUrl: undefined,
      logLevel: 'info',
      upstreamTimeoutMs: 8000,
      reviewsSessionCookie: undefined,
      startupProbe: true,
      batchConcurrency: 4,
      resilience: loadResilienceConfig({}),
      pageArchive: { enabled: true, sampleRate: 0.01, maxEntries: DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES, redisUrl: undefined },
    });
  });

  it('reads every variable, CACHE_REDIS_URL before REDIS_URL', () => {
    const config = loadCoreConfig({
      SERVICE_TOKEN: TOKEN,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
      MARKETPLACE_ORIGIN: 'http://127.0.0.1:9999/',
      CACHE_REDIS_URL: 'redis://cache:6379',
      REDIS_URL: 'redis://shared:6379',
      LOG_LEVEL: 'DEBUG',
      UPSTREAM_TIMEOUT_MS: '2500',
      REVIEWS_SESSION_COOKIE: 'session-id=1',
      BATCH_CONCURRENCY: '12',
    });
    expect(config).toMatchObject({ grpcPort: 0, marketplaceOrigin: 'http://127.0.0.1:9999', cacheRedisUrl: 'redis://cache:6379', logLevel: 'debug', upstreamTimeoutMs: 2500, batchConcurrency: 12 });
    expect(loadCoreConfig({ SERVICE_TOKEN: TOKEN, REDIS_URL: 'redis://shared:6379' }).cacheRedisUrl).toBe('redis://shared:6379');
    expect(loadCoreConfig({ SERVICE_TOKEN: TOKEN, CACHE_REDIS_URL: '' }).cacheRedisUrl).toBeUndefined();
    expect(loadCoreConfig({ SERVICE_TOKEN: TOKEN, UPSTREAM_STARTUP_PROBE: 'false' }).startupProbe).toBe(false);
    // The archive's hand-off lives on the cache Redis, and is this config's, not the process environment's.
    expect(config.pageArchive.redisUrl).toBe('redis://cache:6379');
    expect(loadCoreConfig({ SERVICE_TOKEN: TOKEN, PAGE_ARCHIVE_DAYS: '0', PAGE_ARCHIVE_SAMPLE: '0.5' }).pageArchive).toMatchObject({ enabled: false, sampleRate: 0.5 });
  });

  it('lists every bad variable at once and never echoes a value', () => {
    let error: unknown;
    try {
      loadCoreConfig({ SERVICE_TOKEN: 'short', GRPC_PORT: '70000', MARKETPLACE_ORIGIN: 'ftp://x', LOG_LEVEL: 'loud', CACHE_REDIS_URL: 'http://nope', UPSTREAM_TIMEOUT_MS: 'soon', UPSTREAM_STARTUP_PROBE: 'no', BATCH_CONCURRENCY: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['SERVICE_TOKEN', 'GRPC_PORT', 'MARKETPLACE_ORIGIN', 'LOG_LEVEL', 'CACHE_REDIS_URL', 'UPSTREAM_TIMEOUT_MS', 'UPSTREAM_STARTUP_PROBE', 'BATCH_CONCURRENCY']) expect(problems).toContain(name);
    expect((error as Error).message).not.toContain('short');
  });

  it('refuses a bad page archive setting at start, naming the variable, not the value', () => {
    const run = () => loadCoreConfig({ SERVICE_TOKEN: 'a-long-enough-token', PAGE_ARCHIVE_SAMPLE: '1.5', PAGE_ARCHIVE_DAYS: '-1' });
    expect(run).toThrow(ConfigError);
    const error = (() => {
      try {
        run();
      } catch (thrown) {
        return thrown as ConfigError;
      }
    })();
    for (const name of ['PAGE_ARCHIVE_DAYS', 'PAGE_ARCHIVE_SAMPLE']) expect(error?.problems.join('\n')).toContain(name);
    expect(error?.message).not.toContain('1.5');
    expect(() => loadCoreConfig({ SERVICE_TOKEN: 'a-long-enough-token', PAGE_ARCHIVE_SAMPLE: '', PAGE_ARCHIVE_DAYS: '0' })).not.toThrow();
  });

  it('requires the service token', () => {
    expect(() => loadCoreConfig({})).toThrow(/SERVICE_TOKEN is required/);
  });
});
