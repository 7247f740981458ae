import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR, storeSettingsFromEnv } from '../../../watcher/src/store/index.js';

describe('store settings from the environment', () => {
  it('uses PostgreSQL when DATABASE_URL is set, else PGlite in the data directory', () => {
    expect(storeSettingsFromEnv({})).toEqual({ dataDir: DEFAULT_DATA_DIR });
    expect(storeSettingsFromEnv({ DATABASE_URL: '', WATCHER_DATA_DIR: '', SNAPSHOT_RETENTION_DAYS: '' })).toEqual({ dataDir: DEFAULT_DATA_DIR });
    expect(storeSettingsFromEnv({ DATABASE_URL: 'postgres://db/w', WATCHER_DATA_DIR: '/var/w', SNAPSHOT_RETENTION_DAYS: '90' }))
      .toEqual({ databaseUrl: 'postgres://db/w', dataDir: '/var/w', snapshotRetentionDays: 90 });
  });

  it('refuses a retention that is not a whole number of days', () => {
    for (const bad of ['0', '-5', '1.5', 'ninety']) expect(() => storeSettingsFromEnv({ SNAPSHOT_RETENTION_DAYS: bad })).toThrow(/SNAPSHOT_RETENTION_DAYS/);
  });

  it('reads the page archive retention; 0 (no archive) keeps the default for what is already stored', () => {
    expect(storeSettingsFromEnv({ PAGE_ARCHIVE_DAYS: '45' })).toEqual({ dataDir: DEFAULT_DATA_DIR, pageArchiveDays: 45 });
    expect(storeSettingsFromEnv({ PAGE_ARCHIVE_DAYS: '0' })).toEqual({ dataDir: DEFAULT_DATA_DIR });
    expect(() => storeSettingsFromEnv({ PAGE_ARCHIVE_DAYS: 'month' })).toThrow(/PAGE_ARCHIVE_DAYS/);
  });
});
