/**
 * Bulk jobs' background work (docs/jobs.md): the queues, the chunk processor (hold, run, write,
 * settle, each exactly once), the end webhook, and the job as a retail.v1 message.
 */
export { CHUNK_QUEUE, CHUNK_RETRY_DELAYS_MS, DEFAULT_JOB_CHUNK_SIZE, JOB_END_QUEUE, chunkJobId, jobEndJobId, queueChunks, type ChunkJob, type JobEndJob } from './job-queues.js';
export { announceEnd, createChunkProcessor, DEFAULT_CHUNK_DEADLINE_MS, DEFAULT_RESETTLE_WITHIN_MS, RetryableChunkError, type ChunkDependencies } from './run-chunk.js';
export { createJobEndProcessor, type JobEndDependencies } from './job-end.js';
export { chunkHoldId } from './chunk-hold.js';
export { errorResult, itemCaseName, itemOperation, operationOfResult, runItems, type ItemOutcome, type PendingItem } from './item-calls.js';
export { jobEndMessage, jobMessage } from './job-message.js';
