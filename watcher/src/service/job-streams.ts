/**
 * StreamJobResults and StreamJobProgress (gRPC only; the REST download and Server-Sent Events sit on
 * them). Both poll the store, as StreamWatchEvents does (events-stream.ts says why), and hold
 * nothing but one page in memory: a download of 100,000 results is a series of keyset pages.
 *
 * Results stream in item order. Without `follow` the stream sends what is stored and ends. With it
 * the stream waits at a gap (an item still running) until its result is written, and ends when the
 * job has ended and everything after the cursor was sent; a gap that is still there once the job has
 * ended (items of a cancelled or stopped job that never ran) is passed over.
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import {
  BatchItemResultSchema, type StreamJobProgressRequest, type StreamJobProgressResponse, StreamJobProgressResponseSchema,
  type StreamJobResultsRequest, type StreamJobResultsResponse, StreamJobResultsResponseSchema,
} from '@retail/contract';
import { jobMessage } from '../jobs/index.js';
import { hasEnded, type JobRecord } from '../store/index.js';
import type { CallContext } from './deps.js';
import { pause } from './events-stream.js';
import { ownJob, resultCursorOf } from './job-read.js';
import type { JobParts } from './job-parts.js';

/** Results read per store round trip. */
export const RESULT_STREAM_PAGE = 500;

export function streamJobResultsHandler(parts: JobParts) {
  return async function* stream(request: StreamJobResultsRequest, context: CallContext): AsyncGenerator<StreamJobResultsResponse> {
    let cursor = resultCursorOf(request.cursor);
    let job = await ownJob(parts, context.accountId, request.id);
    while (!context.signal.aborted) {
      // Read the job first: once it has ended, every result is stored, so a gap after this read is final.
      const ended = hasEnded(job);
      const page = await parts.store.jobResults.after(job.id, cursor, RESULT_STREAM_PAGE);
      for (const row of page) {
        if (context.signal.aborted) return;
        if (request.follow && !ended && row.index !== cursor + 1) break;
        cursor = row.index;
        yield create(StreamJobResultsResponseSchema, { result: fromBinary(BatchItemResultSchema, row.result), cursor: String(row.index) });
      }
      if (page.length === RESULT_STREAM_PAGE && (!request.follow || ended || page.at(-1)!.index === cursor)) continue;
      if (!request.follow || ended) return;
      await pause(parts.streamPollMs, context.signal);
      job = (await parts.store.jobs.get(context.accountId, job.id)) ?? job;
    }
  };
}

/** What a progress client wants to hear about: a change of any of these. */
const progressOf = (job: JobRecord) => JSON.stringify([job.status, job.done, job.failed, job.unitsCharged, job.expiresAt, job.webhook?.status]);

export function streamJobProgressHandler(parts: JobParts) {
  return async function* stream(request: StreamJobProgressRequest, context: CallContext): AsyncGenerator<StreamJobProgressResponse> {
    let job = await ownJob(parts, context.accountId, request.id);
    let sent = progressOf(job);
    yield create(StreamJobProgressResponseSchema, { job: jobMessage(job, { retentionMs: parts.store.jobRetentionMs }) });
    while (!context.signal.aborted && !hasEnded(job)) {
      await pause(parts.streamPollMs, context.signal);
      const now = await parts.store.jobs.get(context.accountId, job.id);
      if (!now) return;
      job = now;
      if (progressOf(job) === sent) continue;
      sent = progressOf(job);
      yield create(StreamJobProgressResponseSchema, { job: jobMessage(job, { retentionMs: parts.store.jobRetentionMs }) });
    }
  };
}
