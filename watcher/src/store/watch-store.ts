/**
 * The watcher's storage, composed: one object per record kind, over one `Database`. `openWatchStore`
 * migrates and prepares the snapshot partitions before anything reads or writes.
 */
import { type Clock, systemClock } from './clock.js';
import type { Database } from '@retail/database';
import { createDataIncidentRepository } from './data-incidents.js';
import { createDeliveryRepository } from './deliveries.js';
import { createEventRepository } from './events.js';
import { createJobChunkRepository } from './job-chunks.js';
import { createJobResultRepository } from './job-results.js';
import { createJobRepository } from './jobs.js';
import { migrate } from './migrate.js';
import { createPartitionMaintenance } from './partitions.js';
import { createSnapshotRepository } from './snapshots.js';
import { createWatchRepository } from './watches.js';
import { createArchivedPageRepository } from './archived-pages.js';
import { createReparseJobRepository } from './reparse-jobs.js';

/** Two years: a chart of "this year against last year" still has its data. */
export const DEFAULT_SNAPSHOT_RETENTION_DAYS = 730;
/** A week: long enough to fetch a night's results on Monday, short enough not to keep millions of rows. */
export const DEFAULT_JOB_RESULT_RETENTION_DAYS = 7;

export interface WatchStoreOptions {
  readonly clock?: Clock;
  readonly snapshotRetentionDays?: number;
  /** How long an ended bulk job keeps its results (JOB_RESULT_RETENTION_DAYS). */
  readonly jobResultRetentionDays?: number;
  /** How long archived pages are kept (PAGE_ARCHIVE_DAYS, partitions.ts). */
  readonly pageArchiveDays?: number;
  readonly log?: (line: string) => void;
}

export function createWatchStore(db: Database, options: WatchStoreOptions = {}) {
  const now = options.clock ?? systemClock;
  const jobRetentionDays = options.jobResultRetentionDays ?? DEFAULT_JOB_RESULT_RETENTION_DAYS;
  if (!Number.isInteger(jobRetentionDays) || jobRetentionDays < 1) throw new RangeError(`job result retention must be a whole number of days, got ${jobRetentionDays}`);
  const jobRetentionMs = jobRetentionDays * 86_400_000;
  return {
    db,
    /** How long an ended job and its results are kept (JOB_RESULT_RETENTION_DAYS), in ms. */
    jobRetentionMs,
    /** Raw pages the core fetched, compressed (docs/page-archive.md). */
    pages: createArchivedPageRepository(db),
    /** Re-parsing jobs and the history corrections they made (docs/page-archive.md). */
    reparseJobs: createReparseJobRepository(db),
    watches: createWatchRepository(db, now),
    snapshots: createSnapshotRepository(db),
    events: createEventRepository(db),
    deliveries: createDeliveryRepository(db, now),
    /** Bulk jobs: the owners' side (create, list, cancel) and their chunks and results for the workers. */
    jobs: createJobRepository(db, now, jobRetentionMs),
    jobChunks: createJobChunkRepository(db, now, jobRetentionMs),
    jobResults: createJobResultRepository(db),
    /** Data incidents read from the core, and their operator webhooks (docs/data-health.md). */
    incidents: createDataIncidentRepository(db, now),
    /** Partitions ahead and retention; the scheduler runs it daily, `openWatchStore` once at start. */
    maintenance: createPartitionMaintenance(db, now, options.snapshotRetentionDays ?? DEFAULT_SNAPSHOT_RETENTION_DAYS, options.pageArchiveDays),
    close: () => db.close(),
  };
}

export type WatchStore = ReturnType<typeof createWatchStore>;

/** Migrates `db`, runs partition maintenance once, and returns the store over it. */
export async function openWatchStore(db: Database, options: WatchStoreOptions = {}): Promise<WatchStore> {
  await migrate(db, options.log ? { log: options.log } : {});
  const store = createWatchStore(db, options);
  await store.maintenance.run();
  return store;
}
