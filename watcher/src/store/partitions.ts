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

export async function ensurePartitionsFrom(db: Queryable, first: Date, months: number): Promise<number> {
  const [row] = await db.query<{ created: number }>(`SELECT watcher_snapshot_partitions_ensure($1, $2) AS created`, [first, months]);
  return row!.created;
}

export interface MaintenanceResult {
  /** Partitions created ahead. */
  readonly created: number;
  /** Partitions dropped by retention. */
  readonly dropped: string[];
}

export function createPartitionMaintenance(db: Queryable, now: Clock, retentionDays: number) {
  if (!Number.isInteger(retentionDays) || retentionDays < 1) throw new RangeError(`snapshot retention must be a whole number of days, got ${retentionDays}`);
  return {
    retentionDays,
    /** Creates the months ahead and drops every month that ended more than `retentionDays` ago. */
    async run(): Promise<MaintenanceResult> {
      const at = now();
      const created = await ensurePartitionsFrom(db, at, MONTHS_AHEAD);
      const cutoff = new Date(at.getTime() - retentionDays * 86_400_000);
      const [row] = await db.query<{ dropped: string[] }>(`SELECT watcher_snapshot_partitions_drop_before($1) AS dropped`, [cutoff]);
      return { created, dropped: row!.dropped };
    },
  };
}

export type PartitionMaintenance = ReturnType<typeof createPartitionMaintenance>;
