/** What the JobService's handlers need: the deps a composition gives, and the parts derived from them. */
import type { ChunkJob, JobEndJob } from '../jobs/index.js';
import type { JobQueue, JobSystem } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import type { ServiceLog, WatchServiceDeps } from './deps.js';

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
