/**
 * Snapshot partition upkeep: monthly partitions created ahead, and retention by dropping the months
 * that ended before the retention window. The SQL functions (migration 0001) do the DDL; this is
 * what the watcher calls at start and what its scheduled maintenance job runs (daily is plenty: a
 * month is created `MONTHS_AHEAD` months early, and a missing one is created on first insert anyway).
 */
import type { Clock } from './clock.js';
import type { Queryable } from '@retail/database';

/** The current month and the next two: a watcher that runs maintenance monthly still never misses. */
export const MONTHS_AHEAD = 3;

/** PAGE_ARCHIVE_DAYS' default: a month of raw pages, enough to re-parse what a parser fix should repair. */
export const DEFAULT_PAGE_ARCHIVE_DAYS = 30;

export async function ensurePartitionsFrom(db: Queryable, first: Date, months: number): Promise<number> {
  const [row] = await db.query<{ created: number }>(`SELECT watcher_snapshot_partitions_ensure($1, $2) AS created`, [first, months]);
  return row!.created;
}

/** What the store's repositories query through (the database seam's Queryable, named here for them). */
export type StoreQueryable = Parameters<typeof ensurePartitionsFrom>[0];

/** Monthly partitions of `parent` (named `<parent>_YYYY_MM`, migration 0005's functions), created ahead. */
export function monthPartitionsEnsure(db: StoreQueryable, parent: string, first: Date, months: number): Promise<Array<{ created: number }>> {
  return db.query<{ created: number }>(`SELECT watcher_month_partitions_ensure($1, $2, $3) AS created`, [parent, first, months]);
}

export interface MaintenanceResult {
  /** Partitions created ahead. */
  readonly created: number;
  /** Partitions dropped by retention. */
  readonly dropped: string[];
}

export function createPartitionMaintenance(db: Queryable, now: Clock, retentionDays: number, pageArchiveDays = DEFAULT_PAGE_ARCHIVE_DAYS) {
  if (!Number.isInteger(retentionDays) || retentionDays < 1) throw new RangeError(`snapshot retention must be a whole number of days, got ${retentionDays}`);
  if (!Number.isInteger(pageArchiveDays) || pageArchiveDays < 1) throw new RangeError(`page archive retention must be a whole number of days, got ${pageArchiveDays}`);
  const cutoff = (at: Date, days: number) => new Date(at.getTime() - days * 86_400_000);
  return {
    retentionDays,
    pageArchiveDays,
    /** Creates the months ahead and drops every month that ended more than its retention ago (snapshots, then archived pages). */
    async run(): Promise<MaintenanceResult> {
      const at = now();
      const created = await ensurePartitionsFrom(db, at, MONTHS_AHEAD);
      const [row] = await db.query<{ dropped: string[] }>(`SELECT watcher_snapshot_partitions_drop_before($1) AS dropped`, [cutoff(at, retentionDays)]);
      const [pages] = await monthPartitionsEnsure(db, 'archived_pages', at, MONTHS_AHEAD);
      const [oldPages] = await db.query<{ dropped: string[] }>(`SELECT watcher_month_partitions_drop_before('archived_pages', $1) AS dropped`, [cutoff(at, pageArchiveDays)]);
      return { created: created + pages!.created, dropped: [...row!.dropped, ...oldPages!.dropped] };
    },
  };
}

export type PartitionMaintenance = ReturnType<typeof createPartitionMaintenance>;
