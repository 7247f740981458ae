/**
 * Bulk jobs: private to their account (every owner-facing read and write has `account_id = $1`, so
 * another account's job is not found). A job is created with its items already cut into chunks and
 * the items the gateway refused already as results, in one transaction; the workers' side (take a
 * chunk, write results, settle) is job-chunks.ts.
 */
import type { Clock } from './clock.js';
import { checkedPageSize, decodeTimeIdCursor, encodeTimeIdCursor, type Page, pageOf } from './cursor.js';
import type { Database, Queryable } from '@retail/database';
import { isWatchId as isUuid } from './ids.js';
import { endIfFinished, JOB_COLUMNS, jobOf, type JobRecord, type JobRow, type JobStatus, type JobStopReason, type JobWebhookStatus } from './job-rows.js';
import { insertRows } from './insert-rows.js';

export interface JobChunkDraft {
  /** The items' positions in the job. */
  readonly indexes: readonly number[];
  /** The items, encoded (a BatchLookupRequest). */
  readonly items: Uint8Array;
}

export interface StoredResult {
  readonly index: number;
  readonly ok: boolean;
  /** The item's BatchItemResult, encoded. */
  readonly result: Uint8Array;
}

export interface JobDraft {
  /** Chosen by the caller: the webhook secret is sealed bound to it. */
  readonly id: string;
  readonly accountId: string;
  readonly label?: string;
  readonly webhook?: { readonly url: string; readonly secretCiphertext: string };
  readonly total: number;
  readonly chunks: readonly JobChunkDraft[];
  /** Items refused before the job ran: stored as their (failed) results at once. */
  readonly rejected: readonly StoredResult[];
}

/** A chunk whose work is not finished: what a worker start queues again. */
export interface OpenChunk {
  readonly jobId: string;
  readonly chunk: number;
}

export interface WebhookAttempt {
  readonly status: Exclude<JobWebhookStatus, 'PENDING'>;
  readonly error?: string;
}

/** Statements stay well under PostgreSQL's 65,535 parameters. */
const CHUNKS_PER_STATEMENT = 500;
const RESULTS_PER_STATEMENT = 1000;

export function createJobRepository(db: Database, now: Clock, retentionMs: number) {
  const owned = async (q: Queryable, accountId: string, id: string): Promise<JobRecord | null> => {
    if (!isUuid(id)) return null;
    const [row] = await q.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE account_id = $1 AND id = $2`, [accountId, id]);
    return row ? jobOf(row) : null;
  };

  return {
    /** Stores the job, its chunks and its refused items' results; a job with no item to run has ended at once. */
    async create(draft: JobDraft): Promise<JobRecord> {
      const at = now();
      return db.transaction(async (tx) => {
        const failed = draft.rejected.length;
        await tx.query(
          `INSERT INTO bulk_jobs (id, account_id, label, total, done, failed, chunk_count, webhook_url, webhook_secret, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $9)`,
          [draft.id, draft.accountId, draft.label ?? null, draft.total, failed, draft.chunks.length, draft.webhook?.url ?? null, draft.webhook?.secretCiphertext ?? null, at],
        );
        await insertRows(tx, 'bulk_job_chunks (job_id, chunk, indexes, items)', CHUNKS_PER_STATEMENT,
          draft.chunks.map((c, chunk) => [draft.id, chunk, [...c.indexes], c.items]));
        await insertRows(tx, 'bulk_job_results (job_id, index, ok, result)', RESULTS_PER_STATEMENT,
          draft.rejected.map((r) => [draft.id, r.index, r.ok, r.result]));
        const ended = await endIfFinished(tx, draft.id, at, retentionMs);
        return ended ?? (await owned(tx, draft.accountId, draft.id))!;
      });
    },

    get: (accountId: string, id: string): Promise<JobRecord | null> => owned(db, accountId, id),

    /** Any account's job, for the workers. */
    async byId(id: string): Promise<JobRecord | null> {
      if (!isUuid(id)) return null;
      const [row] = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $1`, [id]);
      return row ? jobOf(row) : null;
    },

    /** The account's jobs, newest first (keyset on (created_at, id) backwards). */
    async list(accountId: string, page: { cursor?: string; limit: number }): Promise<Page<JobRecord>> {
      const limit = checkedPageSize(page.limit);
      const after = decodeTimeIdCursor(page.cursor);
      const rows = await db.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM bulk_jobs
         WHERE account_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
         ORDER BY created_at DESC, id DESC LIMIT $4`,
        [accountId, after?.at ?? null, after && isUuid(after.id) ? after.id : null, limit + 1],
      );
      return pageOf(rows.map(jobOf), limit, (last) => encodeTimeIdCursor(last.createdAt, last.id));
    },

    /**
     * Stops a job that is still QUEUED or RUNNING (cancelled by its owner, or FAILED with a reason):
     * the new status at once, every chunk not yet taken skipped. `ended` is the record when this
     * ended the job (no chunk was running): its caller enqueues the webhook. Null when not found.
     */
    async stop(accountId: string | null, id: string, status: Extract<JobStatus, 'CANCELLED' | 'FAILED'>, stopReason?: JobStopReason): Promise<{ job: JobRecord; ended: JobRecord | null } | null> {
      if (!isUuid(id)) return null;
      const at = now();
      return db.transaction(async (tx) => {
        const [stopped] = await tx.query<{ id: string }>(
          `UPDATE bulk_jobs SET status = $3, stop_reason = $4, finished_at = $5, updated_at = $5
           WHERE id = $2 AND ($1::text IS NULL OR account_id = $1) AND status IN ('QUEUED', 'RUNNING') RETURNING id`,
          [accountId, id, status, status === 'FAILED' ? (stopReason ?? 'INTERNAL') : null, at],
        );
        if (stopped) {
          await tx.query(
            `WITH skipped AS (UPDATE bulk_job_chunks SET state = 'SKIPPED' WHERE job_id = $1 AND state = 'PENDING' RETURNING 1)
             UPDATE bulk_jobs SET chunks_finished = chunks_finished + (SELECT count(*) FROM skipped) WHERE id = $1`,
            [id],
          );
        }
        const ended = stopped ? await endIfFinished(tx, id, at, retentionMs) : null;
        const [row] = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $2 AND ($1::text IS NULL OR account_id = $1)`, [accountId, id]);
        return row ? { job: jobOf(row), ended } : null;
      });
    },

    /** Chunks of jobs that have not ended and whose work is not finished (queued again at worker start). */
    async openChunks(): Promise<OpenChunk[]> {
      const rows = await db.query<{ job_id: string; chunk: number }>(
        `SELECT c.job_id, c.chunk FROM bulk_job_chunks c JOIN bulk_jobs j ON j.id = c.job_id
         WHERE j.expires_at IS NULL AND c.state IN ('PENDING', 'RUNNING', 'SETTLING') ORDER BY j.created_at, c.chunk`,
      );
      return rows.map((r) => ({ jobId: r.job_id, chunk: r.chunk }));
    },

    /** Records one attempt of the job's end webhook; only an open delivery (PENDING, FAILED) takes one. */
    async recordWebhookAttempt(id: string, attempt: WebhookAttempt): Promise<JobRecord | null> {
      const [row] = await db.query<JobRow>(
        `UPDATE bulk_jobs SET webhook_status = $2, webhook_attempts = webhook_attempts + 1, webhook_last_error = $3, updated_at = $4
         WHERE id = $1 AND webhook_status IN ('PENDING', 'FAILED') RETURNING ${JOB_COLUMNS}`,
        [id, attempt.status, attempt.error ?? null, now()],
      );
      return row ? jobOf(row) : null;
    },

    /** Ended jobs whose webhook is still open (queued again at worker start). */
    async openWebhooks(): Promise<string[]> {
      const rows = await db.query<{ id: string }>(`SELECT id FROM bulk_jobs WHERE webhook_status IN ('PENDING', 'FAILED')`);
      return rows.map((r) => r.id);
    },

    /** Retention: deletes ended jobs whose expiry has passed, with their chunks and results; how many. */
    async deleteExpired(batch = 50): Promise<number> {
      let deleted = 0;
      for (;;) {
        const rows = await db.query<{ id: string }>(
          `DELETE FROM bulk_jobs WHERE id IN (SELECT id FROM bulk_jobs WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2) RETURNING id`,
          [now(), batch],
        );
        deleted += rows.length;
        if (rows.length < batch) return deleted;
      }
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
