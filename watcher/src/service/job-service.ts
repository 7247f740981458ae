/**
 * createJobService: one handler per RPC of retail.v1.JobService (bulk jobs), keyed by the method's
 * local name, transport-free like the WatchService's; the watcher's gRPC server serves both.
 */
import { CHUNK_QUEUE, DEFAULT_JOB_CHUNK_SIZE, JOB_END_QUEUE } from '../jobs/index.js';
import { DEFAULT_STREAM_POLL_MS } from './deps.js';
import type { JobParts, JobServiceDeps } from './job-parts.js';
import { createJobHandler } from './job-create.js';
import { cancelJobHandler, getJobHandler, listJobResultsHandler, listJobsHandler } from './job-read.js';
import { streamJobProgressHandler, streamJobResultsHandler } from './job-streams.js';

export function createJobService(deps: JobServiceDeps) {
  const parts: JobParts = {
    store: deps.store,
    chunks: deps.jobs.queue(CHUNK_QUEUE),
    jobEnds: deps.jobs.queue(JOB_END_QUEUE),
    webhooks: deps.webhooks,
    chunkSize: deps.chunkSize ?? DEFAULT_JOB_CHUNK_SIZE,
    streamPollMs: deps.streamPollMs ?? DEFAULT_STREAM_POLL_MS,
    log: deps.log,
  };
  return {
    createJob: createJobHandler(parts),
    getJob: getJobHandler(parts),
    listJobs: listJobsHandler(parts),
    cancelJob: cancelJobHandler(parts),
    listJobResults: listJobResultsHandler(parts),
    streamJobResults: streamJobResultsHandler(parts),
    streamJobProgress: streamJobProgressHandler(parts),
  };
}

export type { JobServiceDeps };
export type JobServiceHandlers = ReturnType<typeof createJobService>;
