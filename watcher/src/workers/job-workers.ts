/**
 * The bulk-job workers on the job system: chunks (bounded per replica, so bulk work never takes
 * every core call a replica can make) and job-end webhooks. At start, and then every five minutes
 * (a repeating job, one replica per run), the chunks of jobs that have not ended and the open end
 * webhooks get their queue jobs back: the in-memory twin lost them at a restart, and on BullMQ a job
 * that stalled more than `maxStalledCount` times, or a queue add lost after its job's commit, would
 * otherwise leave a job that never ends. The ids deduplicate, so a chunk still queued or running is
 * not added twice.
 */
import type { CoreClient } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering';
import {
  announceEnd, CHUNK_QUEUE, createChunkProcessor, createJobEndProcessor, JOB_END_QUEUE, jobEndJobId, queueChunks,
} from '../jobs/index.js';
import { defineQueue, type JobSystem, type JobWorker } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import type { SecretKeyring, WebhookSender } from '../webhooks/index.js';

export interface JobWorkerSettings {
  /** Chunks a replica runs at once (JOB_CONCURRENCY). */
  readonly chunks: number;
  /**
   * JOB_ITEM_CONCURRENCY, no longer used: a chunk is one BatchLookup whose distinct items the core
   * runs BATCH_CONCURRENCY at a time. Still read, so deployments that set it keep starting.
   */
  readonly items: number;
}

export const DEFAULT_JOB_WORKERS: JobWorkerSettings = { chunks: 2, items: 4 };

/** The sweep that gives open chunks and webhooks their queue jobs back; a failed run is simply done again by the next. */
export const JOB_SWEEP_QUEUE = defineQueue<Record<string, never>>('bulk-job-sweep');
export const JOB_SWEEP_SCHEDULE = { id: 'bulk-job-sweep', everyMs: 5 * 60 * 1000 } as const;

export interface JobWorkerDependencies {
  readonly store: WatchStore;
  readonly jobs: JobSystem;
  /** Holds and settles the units of a chunk (and of a refresh: the watches' workers share it), the gateways' ledger. */
  readonly meter: Pick<Meter, 'admitAccount' | 'settle'>;
  readonly core: Pick<CoreClient, 'streamCall'>;
  readonly keyring: SecretKeyring;
  readonly sender: Pick<WebhookSender, 'deliverOnce'>;
  readonly settings: JobWorkerSettings;
  /** Webhook attempts at once (shared with the watches' setting). */
  readonly webhookConcurrency: number;
  readonly log: (line: string) => void;
}

export async function startJobWorkers(deps: JobWorkerDependencies): Promise<{ workers: JobWorker[]; requeued: number }> {
  const { store, jobs, log } = deps;
  const chunks = jobs.queue(CHUNK_QUEUE);
  const jobEnds = jobs.queue(JOB_END_QUEUE);
  const runChunk = createChunkProcessor({ store, meter: deps.meter, core: deps.core, jobEnds, log });
  const jobEnd = createJobEndProcessor({ store, keyring: deps.keyring, sender: deps.sender });
  const workers = [
    jobs.work(CHUNK_QUEUE, async (run) => {
      try {
        await runChunk(run);
      } catch (error) {
        log(`job ${run.data.jobId} chunk ${run.data.chunk} attempt ${run.attempt} of ${run.maxAttempts} failed: ${(error as Error).message}`);
        throw error;
      }
    }, {
      concurrency: deps.settings.chunks,
      // A chunk that failed on every attempt (its database or ledger down throughout): the job stops, saying so.
      onFinalFailure: async (run) => {
        await announceEnd(jobEnds, (await store.jobs.stop(null, run.data.jobId, 'FAILED', 'INTERNAL'))?.ended);
        await announceEnd(jobEnds, (await store.jobChunks.skip(run.data.jobId, run.data.chunk))?.ended);
      },
    }),
    jobs.work(JOB_END_QUEUE, jobEnd.process, { concurrency: deps.webhookConcurrency, onFinalFailure: jobEnd.onFinalFailure }),
    jobs.work(JOB_SWEEP_QUEUE, async () => void (await sweep()), { concurrency: 1 }),
  ];
  async function sweep(): Promise<number> {
    const open = await store.jobs.openChunks();
    await queueChunks(chunks, open);
    for (const jobId of await store.jobs.openWebhooks()) await jobEnds.add({ jobId }, { id: jobEndJobId(jobId) });
    return open.length;
  }
  const requeued = await sweep();
  await jobs.queue(JOB_SWEEP_QUEUE).upsertSchedule(JOB_SWEEP_SCHEDULE.id, { everyMs: JOB_SWEEP_SCHEDULE.everyMs }, {});
  return { workers, requeued };
}
