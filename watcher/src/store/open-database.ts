/**
 * Which database the watcher uses, from the environment: PostgreSQL at `DATABASE_URL` (production,
 * any number of replicas), else embedded PGlite in `WATCHER_DATA_DIR` (the one-process `npm start`:
 * no server to install; one process per directory).
 */
import { createPgliteDatabase, createPostgresDatabase, type Database } from '@retail/database';
import { openWatchStore, type WatchStore, type WatchStoreOptions } from './watch-store.js';

export const DEFAULT_DATA_DIR = '.data/watcher';

export interface StoreSettings {
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly snapshotRetentionDays?: number;
  readonly jobResultRetentionDays?: number;
  readonly pageArchiveDays?: number;
}

/** A whole number of days from `name`; empty = unset, as for the other variables. */
function days(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name] || undefined;
  if (value !== undefined && !/^[1-9][0-9]*$/.test(value)) throw new Error(`${name} must be a whole number of days, got ${JSON.stringify(value)}`);
  return value === undefined ? undefined : Number(value);
}

export function storeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreSettings {
  const retention = days(env, 'SNAPSHOT_RETENTION_DAYS');
  const jobRetention = days(env, 'JOB_RESULT_RETENTION_DAYS');
  // PAGE_ARCHIVE_DAYS=0 turns archiving off in the core; the watcher then still keeps (and ages out) what it has.
  const archiveDays = env.PAGE_ARCHIVE_DAYS === '0' ? undefined : days(env, 'PAGE_ARCHIVE_DAYS');
  return {
    ...(env.DATABASE_URL && { databaseUrl: env.DATABASE_URL }),
    dataDir: env.WATCHER_DATA_DIR || DEFAULT_DATA_DIR,
    ...(retention !== undefined && { snapshotRetentionDays: retention }),
    ...(jobRetention !== undefined && { jobResultRetentionDays: jobRetention }),
    ...(archiveDays !== undefined && { pageArchiveDays: archiveDays }),
  };
}

export async function openDatabase(settings: StoreSettings): Promise<Database> {
  return settings.databaseUrl ? createPostgresDatabase({ connectionString: settings.databaseUrl }) : createPgliteDatabase(settings.dataDir);
}

/** The watcher's store as the environment configures it: migrated, partitions ready. */
export async function openWatchStoreFromEnv(env: NodeJS.ProcessEnv = process.env, options: Omit<WatchStoreOptions, 'snapshotRetentionDays'> = {}): Promise<WatchStore> {
  const settings = storeSettingsFromEnv(env);
  return openWatchStore(await openDatabase(settings), {
    ...options,
    ...(settings.snapshotRetentionDays && { snapshotRetentionDays: settings.snapshotRetentionDays }),
    ...(settings.jobResultRetentionDays && { jobResultRetentionDays: settings.jobResultRetentionDays }),
    ...(settings.pageArchiveDays && { pageArchiveDays: settings.pageArchiveDays }),
  });
}
