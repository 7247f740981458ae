/**
 * A job's results in index order from a cursor (the index after which to read), a page at a time:
 * keyset on the primary key (job, index), so a page is stable while results are still being written,
 * and a download is a series of such pages, never the whole job in memory.
 */
import { InvalidCursorError } from './cursor.js';
import type { Queryable } from '@retail/database';
import type { StoredResult } from './jobs.js';

/** A cursor is the index of the last result read, as text; none: before the first. */
export function resultCursor(cursor: string | undefined): number {
  if (cursor === undefined) return -1;
  if (!/^(0|[1-9][0-9]{0,8})$/.test(cursor)) throw new InvalidCursorError(cursor);
  return Number(cursor);
}

export function createJobResultRepository(db: Queryable) {
  return {
    /** Up to `limit` results after index `after`, in index order. The caller has checked the job's owner. */
    async after(jobId: string, after: number, limit: number): Promise<StoredResult[]> {
      const rows = await db.query<{ index: number; ok: boolean; result: Uint8Array }>(
        `SELECT index, ok, result FROM bulk_job_results WHERE job_id = $1 AND index > $2 ORDER BY index LIMIT $3`,
        [jobId, after, limit],
      );
      return rows.map((r) => ({ index: r.index, ok: r.ok, result: r.result }));
    },

    /** The successful results among `indexes` (a chunk's), in index order. */
    async successesAmong(jobId: string, indexes: readonly number[]): Promise<StoredResult[]> {
      const rows = await db.query<{ index: number; result: Uint8Array }>(
        `SELECT index, result FROM bulk_job_results WHERE job_id = $1 AND index = ANY($2::integer[]) AND ok ORDER BY index`,
        [jobId, [...indexes]],
      );
      return rows.map((r) => ({ index: r.index, ok: true, result: r.result }));
    },
  };
}

export type JobResultRepository = ReturnType<typeof createJobResultRepository>;
