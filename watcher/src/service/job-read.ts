/**
 * GetJob, ListJobs, CancelJob and ListJobResults: the owner's reads and the cancel. Another
 * account's job, a malformed id and an expired job are the same NOT_FOUND.
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import {
  BatchItemResultSchema, type CancelJobRequest, CancelJobRequestSchema, type CancelJobResponse, CancelJobResponseSchema, type GetJobRequest,
  GetJobRequestSchema, type GetJobResponse, GetJobResponseSchema, type ListJobResultsRequest, ListJobResultsRequestSchema,
  type ListJobResultsResponse, ListJobResultsResponseSchema, type ListJobsRequest, ListJobsRequestSchema, type ListJobsResponse,
  ListJobsResponseSchema, requestRules,
} from '@retail/contract';
import { announceEnd, jobMessage } from '../jobs/index.js';
import { hasEnded, InvalidCursorError, type JobRecord, resultCursor } from '../store/index.js';
import type { CallContext } from './deps.js';
import { invalidArgument, notFound } from './errors.js';
import type { JobParts } from './job-parts.js';
import { pageOrInvalidCursor } from './pages.js';
import { checkDeclaredRules } from './request-checks.js';

const declaredLimit = (desc: typeof ListJobsRequestSchema | typeof ListJobResultsRequestSchema) => Number(requestRules(desc).find((r) => r.name === 'limit')?.defaultValue);
const DEFAULT_JOB_PAGE = declaredLimit(ListJobsRequestSchema);
const DEFAULT_RESULT_PAGE = declaredLimit(ListJobResultsRequestSchema);

/** The account's job, or NOT_FOUND naming `field`. */
export async function ownJob(parts: JobParts, accountId: string, id: string, field = 'id'): Promise<JobRecord> {
  const job = await parts.store.jobs.get(accountId, id);
  if (!job) throw notFound('job', field);
  return job;
}

/** A results cursor (an item index), or INVALID_ARGUMENT on `cursor`. */
export function resultCursorOf(cursor: string | undefined): number {
  try {
    return resultCursor(cursor === '' ? undefined : cursor);
  } catch (error) {
    if (error instanceof InvalidCursorError) throw invalidArgument('cursor is not a cursor of this list; pass a nextCursor as given', 'cursor');
    throw error;
  }
}

export function getJobHandler(parts: JobParts) {
  return async (request: GetJobRequest, context: CallContext): Promise<GetJobResponse> => {
    checkDeclaredRules(GetJobRequestSchema, request);
    return create(GetJobResponseSchema, { retailJob: jobMessage(await ownJob(parts, context.accountId, request.id), { retentionMs: parts.store.jobRetentionMs }) });
  };
}

export function listJobsHandler(parts: JobParts) {
  return async (request: ListJobsRequest, context: CallContext): Promise<ListJobsResponse> => {
    checkDeclaredRules(ListJobsRequestSchema, request);
    const page = await pageOrInvalidCursor(() => parts.store.jobs.list(context.accountId, {
      limit: request.limit ?? DEFAULT_JOB_PAGE,
      ...(request.cursor ? { cursor: request.cursor } : {}),
    }));
    return create(ListJobsResponseSchema, { retailJobs: { jobs: page.items.map((job) => jobMessage(job, { retentionMs: parts.store.jobRetentionMs })), ...(page.nextCursor !== null && { nextCursor: page.nextCursor }) } });
  };
}

export function cancelJobHandler(parts: JobParts) {
  return async (request: CancelJobRequest, context: CallContext): Promise<CancelJobResponse> => {
    checkDeclaredRules(CancelJobRequestSchema, request);
    // A job that has already ended stays as it is: cancelling it again is not an error.
    const stopped = await parts.store.jobs.stop(context.accountId, request.id, 'CANCELLED');
    if (!stopped) throw notFound('job', 'id');
    await announceEnd(parts.jobEnds, stopped.ended);
    return create(CancelJobResponseSchema, { retailJob: jobMessage(stopped.job, { retentionMs: parts.store.jobRetentionMs }) });
  };
}

export function listJobResultsHandler(parts: JobParts) {
  return async (request: ListJobResultsRequest, context: CallContext): Promise<ListJobResultsResponse> => {
    checkDeclaredRules(ListJobResultsRequestSchema, request);
    const after = resultCursorOf(request.cursor);
    const job = await ownJob(parts, context.accountId, request.id);
    const limit = request.limit ?? DEFAULT_RESULT_PAGE;
    const rows = await parts.store.jobResults.after(request.id, after, limit + 1);
    const page = rows.slice(0, limit);
    // While the job runs more results may come: the cursor stays, to poll from; null only at the end of an ended job.
    const last = page.at(-1)?.index ?? after;
    const more = rows.length > limit || !hasEnded(job);
    return create(ListJobResultsResponseSchema, {
      retailJobResults: {
        results: page.map((row) => fromBinary(BatchItemResultSchema, row.result)),
        ...(more && last >= 0 && { nextCursor: String(last) }),
      },
    });
  };
}
