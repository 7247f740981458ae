/**
 * Bulk jobs as the store keeps them: the record, its row mapping, and the one statement that ends a
 * job. A job has *ended* when every chunk is settled or skipped (`chunks_finished = chunk_count`):
 * only then are its counters final, its expiry set and its webhook due. CANCELLED and FAILED are
 * set at once (visible at once); chunks already running still finish, so such a job ends a little later.
 */
import type { Queryable } from '@retail/database';
import { recordOfRow } from './row-record.js';

export type JobStatus = 'QUEUED' | 'RUNNING' | 'DONE' | 'CANCELLED' | 'FAILED';
export type JobStopReason = 'INSUFFICIENT_UNITS' | 'ACCOUNT_UNAVAILABLE' | 'INTERNAL';
export type JobWebhookStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'DEAD';

export interface JobWebhookRecord {
  readonly url: string;
  /** The secret as ciphertext from the webhooks layer (sealed bound to the job id). */
  readonly secretCiphertext: string;
  /** Null until the job has ended. */
  readonly status?: JobWebhookStatus;
  readonly attempts: number;
  readonly lastError?: string;
}

export interface JobRecord {
  readonly id: string;
  readonly accountId: string;
  readonly label?: string;
  readonly status: JobStatus;
  readonly stopReason?: JobStopReason;
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly unitsCharged: number;
  readonly chunkCount: number;
  readonly chunksFinished: number;
  readonly webhook?: JobWebhookRecord;
  readonly createdAt: Date;
  readonly finishedAt?: Date;
  /** Set when the job has ended: the job and its results are deleted then. */
  readonly expiresAt?: Date;
}

export const TERMINAL_STATUSES: readonly JobStatus[] = ['DONE', 'CANCELLED', 'FAILED'];

/** Every chunk settled or skipped: counters final, expiry set. */
export const hasEnded = (job: JobRecord): boolean => job.expiresAt !== undefined;

export interface JobRow {
  id: string;
  account_id: string;
  label: string | null;
  status: JobStatus;
  stop_reason: JobStopReason | null;
  total: number;
  done: number;
  failed: number;
  units_charged: number;
  chunk_count: number;
  chunks_finished: number;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_status: JobWebhookStatus | null;
  webhook_attempts: number;
  webhook_last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
}

export const JOB_COLUMNS = `id, account_id, label, status, stop_reason, total, done, failed, units_charged, chunk_count,
  chunks_finished, webhook_url, webhook_secret, webhook_status, webhook_attempts, webhook_last_error, created_at,
  finished_at, expires_at`;

/** The job's columns as its record; the webhook columns, when it has a webhook, as its `webhook`. */
export function jobOf({ webhook_url: url, webhook_secret: secretCiphertext, webhook_status, webhook_attempts, webhook_last_error, ...job }: JobRow): JobRecord {
  return {
    ...recordOfRow(job),
    ...(url !== null && secretCiphertext !== null && {
      webhook: { url, secretCiphertext, ...recordOfRow({ status: webhook_status, attempts: webhook_attempts, last_error: webhook_last_error }) },
    }),
  };
}

/**
 * Ends the job when its last chunk has finished: DONE unless it was cancelled or stopped, the end
 * time, the expiry, and the webhook due. Guarded by `expires_at IS NULL`, so it happens exactly once
 * (the one caller that gets the record back enqueues the webhook). Run inside the transaction that
 * finished the chunk.
 */
export async function endIfFinished(tx: Queryable, jobId: string, at: Date, retentionMs: number): Promise<JobRecord | null> {
  const [row] = await tx.query<JobRow>(
    `UPDATE bulk_jobs SET
       status = CASE WHEN status IN ('QUEUED', 'RUNNING') THEN 'DONE' ELSE status END,
       finished_at = coalesce(finished_at, $2),
       expires_at = $3,
       webhook_status = CASE WHEN webhook_url IS NULL THEN NULL ELSE 'PENDING' END,
       updated_at = $2
     WHERE id = $1 AND chunks_finished = chunk_count AND expires_at IS NULL
     RETURNING ${JOB_COLUMNS}`,
    [jobId, at, new Date(at.getTime() + retentionMs)],
  );
  return row ? jobOf(row) : null;
}
