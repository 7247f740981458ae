/**
 * The workers' side of bulk jobs: take a chunk, write its results (each exactly once: the primary
 * key (job, index) and ON CONFLICT DO NOTHING, with the job's counters raised by the rows actually
 * inserted), mark it SETTLING with its hold and its successes, then SETTLED with what the ledger
 * charged. Each state change is guarded by the state it leaves, so a run repeated after a crash
 * changes nothing twice; the transaction that finishes the last chunk ends the job (job-rows.ts).
 */
import type { Clock } from './clock.js';
import type { Database, Queryable } from '@retail/database';
import { endIfFinished, type JobRecord, JOB_COLUMNS, jobOf, type JobRow } from './job-rows.js';
import type { StoredResult } from './jobs.js';
import { insertRows } from './insert-rows.js';

export type ChunkState = 'PENDING' | 'RUNNING' | 'SETTLING' | 'SETTLED' | 'SKIPPED';

export interface ChunkWork {
  readonly job: JobRecord;
  readonly indexes: readonly number[];
  /** The chunk's items, encoded (a BatchLookupRequest), in `indexes` order. */
  readonly items: Uint8Array;
  /** Indexes of the chunk that already have a result (written by an earlier attempt). */
  readonly answered: ReadonlySet<number>;
}

export interface SettlingChunk {
  readonly holdId: string;
  readonly successes: number;
  readonly markedAt: Date;
}

export type TakenChunk =
  | { readonly kind: 'run'; readonly work: ChunkWork }
  /** Marked by an earlier run that did not live to record the settle. */
  | { readonly kind: 'settling'; readonly settling: SettlingChunk; readonly accountId: string; readonly indexes: readonly number[] }
  | { readonly kind: 'finished' }
  | { readonly kind: 'gone' };

interface ChunkRow {
  state: ChunkState;
  indexes: number[];
  items: Uint8Array;
  hold_id: string | null;
  successes: number | null;
  marked_at: Date | null;
}

const RESULTS_PER_STATEMENT = 1000;

export function createJobChunkRepository(db: Database, now: Clock, retentionMs: number) {
  /** Counts the chunk finished on its job and ends the job when it was the last. */
  async function finish(tx: Queryable, jobId: string, units: number): Promise<JobRecord | null> {
    await tx.query(`UPDATE bulk_jobs SET units_charged = units_charged + $2, chunks_finished = chunks_finished + 1, updated_at = $3 WHERE id = $1`, [jobId, units, now()]);
    return endIfFinished(tx, jobId, now(), retentionMs);
  }

  return {
    /** Takes a chunk to run: PENDING becomes RUNNING (and its job RUNNING); a RUNNING one is a re-run after a crash. */
    async take(jobId: string, chunk: number): Promise<TakenChunk> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<ChunkRow>(
          `SELECT state, indexes, items, hold_id, successes, marked_at FROM bulk_job_chunks WHERE job_id = $1 AND chunk = $2 FOR UPDATE`,
          [jobId, chunk],
        );
        if (!row) return { kind: 'gone' };
        if (row.state === 'SETTLED' || row.state === 'SKIPPED') return { kind: 'finished' };
        if (row.state === 'SETTLING') {
          const [job] = await tx.query<{ account_id: string }>(`SELECT account_id FROM bulk_jobs WHERE id = $1`, [jobId]);
          return { kind: 'settling', settling: { holdId: row.hold_id!, successes: row.successes!, markedAt: row.marked_at! }, accountId: job!.account_id, indexes: row.indexes };
        }
        if (row.state === 'PENDING') {
          await tx.query(`UPDATE bulk_job_chunks SET state = 'RUNNING' WHERE job_id = $1 AND chunk = $2`, [jobId, chunk]);
          await tx.query(`UPDATE bulk_jobs SET status = 'RUNNING', updated_at = $2 WHERE id = $1 AND status = 'QUEUED'`, [jobId, now()]);
        }
        const [job] = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $1`, [jobId]);
        const answered = await tx.query<{ index: number }>(`SELECT index FROM bulk_job_results WHERE job_id = $1 AND index = ANY($2::integer[])`, [jobId, row.indexes]);
        return { kind: 'run', work: { job: jobOf(job!), indexes: row.indexes, items: row.items, answered: new Set(answered.map((r) => r.index)) } };
      });
    },

    /** Writes results not written yet and raises the job's counters by what was new; the number new. */
    async writeResults(jobId: string, results: readonly StoredResult[]): Promise<number> {
      if (results.length === 0) return 0;
      return db.transaction(async (tx) => {
        const inserted = await insertRows<{ ok: boolean }>(tx, 'bulk_job_results (job_id, index, ok, result)', RESULTS_PER_STATEMENT,
          results.map((r) => [jobId, r.index, r.ok, r.result]), 'ON CONFLICT (job_id, index) DO NOTHING RETURNING ok');
        const failed = inserted.filter((r) => !r.ok).length;
        await tx.query(`UPDATE bulk_jobs SET done = done + $2, failed = failed + $3, updated_at = $4 WHERE id = $1`, [jobId, inserted.length, failed, now()]);
        return inserted.length;
      });
    },

    /**
     * RUNNING → SETTLING: the chunk's results are all written; its successes (counted here, whichever
     * attempt wrote them) are what `holdId` is to be charged. Null when the chunk was not RUNNING.
     */
    async markSettling(jobId: string, chunk: number, holdId: string): Promise<SettlingChunk | null> {
      const [row] = await db.query<{ successes: number; marked_at: Date }>(
        `UPDATE bulk_job_chunks c SET state = 'SETTLING', hold_id = $3, marked_at = $4,
           successes = (SELECT count(*) FROM bulk_job_results r WHERE r.job_id = c.job_id AND r.index = ANY(c.indexes) AND r.ok)
         WHERE job_id = $1 AND chunk = $2 AND state = 'RUNNING' RETURNING successes, marked_at`,
        [jobId, chunk, holdId, now()],
      );
      return row ? { holdId, successes: row.successes, markedAt: row.marked_at } : null;
    },

    /** SETTLING → SETTLED with what the ledger charged; the job's end when this was its last chunk. */
    async markSettled(jobId: string, chunk: number, charged: number): Promise<{ ended: JobRecord | null } | null> {
      return db.transaction(async (tx) => {
        const updated = await tx.query(`UPDATE bulk_job_chunks SET state = 'SETTLED', units_charged = $3 WHERE job_id = $1 AND chunk = $2 AND state = 'SETTLING' RETURNING 1`, [jobId, chunk, charged]);
        return updated.length === 0 ? null : { ended: await finish(tx, jobId, charged) };
      });
    },

    /** PENDING or RUNNING → SKIPPED (its job stopped before it ran); the job's end when this was its last chunk. */
    async skip(jobId: string, chunk: number): Promise<{ ended: JobRecord | null } | null> {
      return db.transaction(async (tx) => {
        const updated = await tx.query(`UPDATE bulk_job_chunks SET state = 'SKIPPED' WHERE job_id = $1 AND chunk = $2 AND state IN ('PENDING', 'RUNNING') RETURNING 1`, [jobId, chunk]);
        return updated.length === 0 ? null : { ended: await finish(tx, jobId, 0) };
      });
    },
  };
}

export type JobChunkRepository = ReturnType<typeof createJobChunkRepository>;
