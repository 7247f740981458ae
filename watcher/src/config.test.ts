import { describe, expect, it } from 'vitest';
import { loadWatcherConfig, reparseConcurrencyFromEnv, WatcherConfigError } from './config.js';

const TOKEN = 'a-service-token';

describe('loadWatcherConfig', () => {
  it('defaults to both roles, the WatchService on 50052, probes on 8080, PGlite in .data/watcher', () => {
    expect(loadWatcherConfig({ SERVICE_TOKEN: TOKEN })).toMatchObject({
      role: 'all',
      grpcPort: 50052,
      healthPort: 8080,
      core: { address: '127.0.0.1:50051', deadlineMs: 10_000 },
      concurrency: { refresh: 4, delivery: 8 },
      jobWorkers: { chunks: 2, items: 4 },
      jobChunkSize: 50,
      store: { dataDir: '.data/watcher' },
      webhooks: { policy: { allowPrivateTargets: false }, timeoutMs: 10_000 },
    });
  });

  it('reads roles, concurrency, lock timings, and treats blank values as unset', () => {
    const config = loadWatcherConfig({
      SERVICE_TOKEN: TOKEN, WATCHER_ROLE: 'worker', WATCHER_REFRESH_CONCURRENCY: '2', WATCHER_DELIVERY_CONCURRENCY: ' ',
      WATCHER_JOB_LOCK_MS: '1500', DATABASE_URL: 'postgres://db/watcher',
    });
    expect(config).toMatchObject({ role: 'worker', concurrency: { refresh: 2, delivery: 8 }, jobLockMs: 1500, store: { databaseUrl: 'postgres://db/watcher' } });
    expect(config.stalledCheckMs).toBeUndefined();
  });

  it('reads the bulk-job settings and their retention', () => {
    const config = loadWatcherConfig({ SERVICE_TOKEN: TOKEN, JOB_CONCURRENCY: '3', JOB_ITEM_CONCURRENCY: '8', JOB_CHUNK_SIZE: '100', JOB_RESULT_RETENTION_DAYS: '14' });
    expect(config).toMatchObject({ jobWorkers: { chunks: 3, items: 8 }, jobChunkSize: 100, store: { jobResultRetentionDays: 14 } });
    const bad = () => loadWatcherConfig({ SERVICE_TOKEN: TOKEN, JOB_CHUNK_SIZE: '0', JOB_RESULT_RETENTION_DAYS: 'a week' });
    expect(bad).toThrow(WatcherConfigError);
    expect(() => bad()).toThrow(expect.objectContaining({ problems: [expect.stringMatching(/^JOB_CHUNK_SIZE /), expect.stringMatching(/^JOB_RESULT_RETENTION_DAYS /)] }));
  });

  it('reads REPARSE_CONCURRENCY (default 4), alone too for the admin CLI, refusing 0 by name', () => {
    expect(loadWatcherConfig({ SERVICE_TOKEN: TOKEN }).reparseConcurrency).toBe(4);
    expect(loadWatcherConfig({ SERVICE_TOKEN: TOKEN, REPARSE_CONCURRENCY: '8' }).reparseConcurrency).toBe(8);
    expect(reparseConcurrencyFromEnv({})).toBe(4);
    expect(reparseConcurrencyFromEnv({ REPARSE_CONCURRENCY: '2' })).toBe(2);
    expect(() => reparseConcurrencyFromEnv({ REPARSE_CONCURRENCY: '0' })).toThrow(expect.objectContaining({ problems: [expect.stringMatching(/^REPARSE_CONCURRENCY /)] }));
  });

  it('lists every bad variable in one error, its own and the parts\' alike, never echoing a value', () => {
    const read = () => loadWatcherConfig({
      SERVICE_TOKEN: 'short', WATCHER_ROLE: 'both', WATCHER_REFRESH_CONCURRENCY: '0', CORE_ADDRESS: 'core',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes', SNAPSHOT_RETENTION_DAYS: 'forever',
    });
    expect(read).toThrow(WatcherConfigError);
    try {
      read();
    } catch (error) {
      const problems = (error as WatcherConfigError).problems;
      expect(problems.map((line) => line.split(' ')[0])).toEqual(
        ['WATCHER_ROLE', 'SERVICE_TOKEN', 'CORE_ADDRESS', 'WATCHER_REFRESH_CONCURRENCY', 'SNAPSHOT_RETENTION_DAYS', 'WEBHOOK_ALLOW_PRIVATE_TARGETS'],
      );
      expect(problems.join('\n')).not.toContain('short');
    }
  });
});
