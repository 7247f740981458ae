/**
 * createJobService: one handler per RPC of retail.v1.JobService (bulk jobs), keyed by the method's
 * local name, transport-free like the WatchService's; the watcher's gRPC server serves both.
 */
import type { JobQueue, JobSystem } from '../queue/index.js';
import { CHUNK_QUEUE, type ChunkJob, DEFAULT_JOB_CHUNK_SIZE, JOB_END_QUEUE, type JobEndJob } from '../jobs/index.js';
import type { WatchStore } from '../store/index.js';
import { type ServiceLog, DEFAULT_STREAM_POLL_MS, type WatchServiceDeps } from './deps.js';
import { createJobHandler } from './job-create.js';
import { cancelJobHandler, getJobHandler, listJobResultsHandler, listJobsHandler } from './job-read.js';
import { streamJobProgressHandler, streamJobResultsHandler } from './job-streams.js';


export interface JobServiceDeps extends Pick<WatchServiceDeps, 'webhooks' | 'clock' | 'streamPollMs' | 'log'> {
  readonly store: WatchStore;
  readonly jobs: Pick<JobSystem, 'queue'>;
  readonly chunkSize?: number;
}

export interface JobParts {
  readonly store: WatchStore;
  readonly chunks: JobQueue<ChunkJob>;
  readonly jobEnds: JobQueue<JobEndJob>;
  readonly webhooks: WatchServiceDeps['webhooks'];
  readonly chunkSize: number;
  readonly streamPollMs: number;
  readonly log: ServiceLog | undefined;
}

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

export type JobServiceHandlers = ReturnType<typeof createJobService>;
