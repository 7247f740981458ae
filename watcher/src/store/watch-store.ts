/**
 * The watcher's storage, composed: one object per record kind, over one `Database`. `openWatchStore`
 * migrates and prepares the snapshot partitions before anything reads or writes.
 */
import { type Clock, systemClock } from './clock.js';
import type { Database } from './database.js';
import { createDeliveryRepository } from './deliveries.js';
import { createEventRepository } from './events.js';
import { migrate } from './migrate.js';
import { createPartitionMaintenance } from './partitions.js';
import { createSnapshotRepository } from './snapshots.js';
import { createWatchRepository } from './watches.js';

/** Two years: a chart of "this year against last year" still has its data. */
export const DEFAULT_SNAPSHOT_RETENTION_DAYS = 730;

export interface WatchStoreOptions {
  readonly clock?: Clock;
  readonly snapshotRetentionDays?: number;
  readonly log?: (line: string) => void;
}

export function createWatchStore(db: Database, options: WatchStoreOptions = {}) {
  const now = options.clock ?? systemClock;
  return {
    db,
    watches: createWatchRepository(db, now),
    snapshots: createSnapshotRepository(db),
    events: createEventRepository(db),
    deliveries: createDeliveryRepository(db, now),
    /** Partitions ahead and retention; the scheduler runs it daily, `openWatchStore` once at start. */
    maintenance: createPartitionMaintenance(db, now, options.snapshotRetentionDays ?? DEFAULT_SNAPSHOT_RETENTION_DAYS),
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
