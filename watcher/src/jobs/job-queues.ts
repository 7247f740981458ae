/**
 * The bulk-job queues, declared once for producers and workers: one job per chunk (id
 * `<job id>:<chunk>`, at `bulk` priority) and one per job end with a webhook (id `<job id>:end`,
 * retried on the webhooks' schedule of about a day).
 */
import { defineQueue, type JobQueue } from '../queue/index.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../webhooks/index.js';

export interface ChunkJob {
  readonly jobId: string;
  readonly chunk: number;
}

export interface JobEndJob {
  readonly jobId: string;
}

/**
 * A chunk whose items the core could not serve now (unreachable, its breaker open, the marketplace
 * blocking or slow) runs again for those items after 5 s, 30 s and 2 min; on the last attempt such
 * an item gets its error as its result, so every chunk ends.
 */
export const CHUNK_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000];

export const CHUNK_QUEUE = defineQueue<ChunkJob>('bulk-job-chunk', { retryDelaysMs: CHUNK_RETRY_DELAYS_MS });
export const JOB_END_QUEUE = defineQueue<JobEndJob>('bulk-job-end', { retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS });

/**
 * Items per chunk (JOB_CHUNK_SIZE): one queue job and one ledger hold. Small enough that a chunk runs
 * well within the ledger's hold lifetime (60 s) under the marketplace's rate caps, and that a job
 * stopped for lack of units leaves at most this many units unused.
 */
export const DEFAULT_JOB_CHUNK_SIZE = 50;

export const chunkJobId = (jobId: string, chunk: number): string => `${jobId}:${chunk}`;
export const jobEndJobId = (jobId: string): string => `${jobId}:end`;

/** Queues chunks of jobs in one round trip (at `bulk` priority; the ids deduplicate a repeat). */
export async function queueChunks(chunks: JobQueue<ChunkJob>, jobChunks: ReadonlyArray<ChunkJob>): Promise<void> {
  const batch = 1000;
  for (let i = 0; i < jobChunks.length; i += batch) {
    await chunks.addBulk(jobChunks.slice(i, i + batch).map((data) => ({ data, options: { id: chunkJobId(data.jobId, data.chunk), priority: 'bulk' as const } })));
  }
}
