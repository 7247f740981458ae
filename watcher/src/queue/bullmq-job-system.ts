/**
 * The job system on BullMQ and a non-evicting Redis: the production implementation. Schedules are
 * BullMQ job schedulers (`every` plus the id's phase as `offset`), one-off jobs are plain jobs with
 * an encoded custom id, retries use a custom back-off strategy reading the queue definition, and a
 * job whose worker died is moved back to wait by another worker's stalled check once its lock expires.
 */
import { Queue, UnrecoverableError, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { dueAtOfScheduledJob, fromBullJobId, toBullJobId } from './bullmq-job-ids.js';
import { attempt } from './final-failure.js';
import { UnrecoverableJobError, type AddJobOptions, type JobPriority, type JobProcessor, type JobQueue, type JobRun, type JobSystem, type JobWorker, type WorkOptions } from './job-system.js';
import { PRIORITY_RANK, maxAttemptsOf, retryDelayAfter, type QueueDefinition } from './queue-definition.js';
import { checkNonEvicting, type EvictingRedis } from './redis-eviction.js';
import { checkEveryMs, schedulePhaseMs } from './schedule-times.js';
import { withTimeout } from './with-timeout.js';

export interface BullJobSystemOptions {
  readonly redisUrl: string;
  /** Prefix of every BullMQ key (default `queue`). */
  readonly prefix?: string;
  /**
   * How long a running job's lock lives without renewal (renewed at half of it while the worker is
   * alive): after a worker dies its jobs run again within about this plus `stalledIntervalMs`.
   */
  readonly lockDurationMs?: number;
  /** How often each worker looks for jobs whose lock expired. */
  readonly stalledIntervalMs?: number;
  /** Re-runs after crashes before a job counts as failed (without its dead-letter hook). */
  readonly maxStalledCount?: number;
  /** An evicting Redis is refused by default. */
  readonly evictingRedis?: EvictingRedis;
  /** Warnings and background errors (reconnects, a failed lock renewal). Default console.warn. */
  readonly warn?: (message: string) => void;
}

export const DEFAULT_LOCK_DURATION_MS = 30_000;
export const DEFAULT_STALLED_INTERVAL_MS = 30_000;
/** BullMQ's default is 1; a rolling update that kills a pod twice under one job should not fail it. */
export const DEFAULT_MAX_STALLED_COUNT = 2;
/** A custom back-off type, so BullMQ calls `settings.backoffStrategy` (the definition's schedule). */
const RETRY_SCHEDULE = 'retry-schedule';

export async function createBullJobSystem(options: BullJobSystemOptions): Promise<JobSystem> {
  const warn = options.warn ?? ((message: string) => console.warn(`[queue] ${message}`));
  const prefix = options.prefix ?? 'queue';
  // Producers fail fast when Redis is down (an API call should not hang); workers must retry for ever
  // (BullMQ requires maxRetriesPerRequest: null on the connection its blocking reads use).
  const producerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: 2 });
  const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  for (const connection of [producerConnection, workerConnection]) connection.on('error', (error: Error) => warn(`redis: ${error.message}`));
  try {
    await checkNonEvicting(producerConnection, options.evictingRedis ?? 'refuse', warn);
  } catch (error) {
    producerConnection.disconnect();
    workerConnection.disconnect();
    throw error;
  }

  const queues = new Map<string, { queue: Queue; handle: JobQueue<unknown> }>();
  const workers = new Set<Worker>();
  const onBackgroundError = (error: Error) => warn(error.message);

  return {
    kind: 'bullmq',
    queue<Data>(definition: QueueDefinition<Data>): JobQueue<Data> {
      let entry = queues.get(definition.name);
      if (!entry) {
        const queue = new Queue(definition.name, { connection: producerConnection, prefix });
        queue.on('error', onBackgroundError);
        entry = { queue, handle: bullQueue(queue, definition) };
        queues.set(definition.name, entry);
      }
      return entry.handle;
    },
    work<Data>(definition: QueueDefinition<Data>, processor: JobProcessor<Data>, work: WorkOptions<Data>): JobWorker {
      const worker = new Worker(definition.name, (job: Job) => runOnBull(job, processor, work), {
        connection: workerConnection,
        prefix,
        concurrency: work.concurrency,
        lockDuration: options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS,
        stalledInterval: options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
        maxStalledCount: options.maxStalledCount ?? DEFAULT_MAX_STALLED_COUNT,
        settings: { backoffStrategy: (attemptsMade: number) => retryDelayAfter(definition, attemptsMade) },
      });
      worker.on('error', onBackgroundError);
      workers.add(worker);
      return {
        async close() {
          await worker.close();
          workers.delete(worker);
        },
      };
    },
    async ready() {
      return withTimeout(producerConnection.ping().then((reply) => reply === 'PONG'), 1_000, false).catch(() => false);
    },
    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
      await Promise.all([...queues.values()].map(({ queue }) => queue.close()));
      await Promise.all([producerConnection, workerConnection].map((connection) => connection.quit().catch(() => connection.disconnect())));
    },
  };
}

function jobOptions(definition: QueueDefinition<unknown>, priority: JobPriority | undefined): JobsOptions {
  const attempts = maxAttemptsOf(definition);
  return {
    priority: PRIORITY_RANK[priority ?? 'normal'],
    attempts,
    ...(attempts > 1 ? { backoff: { type: RETRY_SCHEDULE } } : {}),
    // Finished jobs leave Redis at once: the outcome the callers need is in their own store, and a
    // dedup id becomes free for a redelivery (the twin behaves the same).
    removeOnComplete: true,
    removeOnFail: true,
  };
}

function addOptions(definition: QueueDefinition<unknown>, options: AddJobOptions): JobsOptions {
  return {
    ...jobOptions(definition, options.priority),
    ...(options.id !== undefined ? { jobId: toBullJobId(options.id) } : {}),
    ...(options.delayMs ? { delay: options.delayMs } : {}),
  };
}

function bullQueue(queue: Queue, definition: QueueDefinition<unknown>): JobQueue<unknown> {
  return {
    name: definition.name,
    async add(data, options = {}) {
      const job = await queue.add(definition.name, data, addOptions(definition, options));
      return fromBullJobId(job.id!);
    },
    async addBulk(jobs) {
      const added = await queue.addBulk(jobs.map(({ data, options = {} }) => ({ name: definition.name, data, opts: addOptions(definition, options) })));
      return added.map((job) => fromBullJobId(job.id!));
    },
    async upsertSchedule(id, options, data) {
      checkEveryMs(options.everyMs);
      const job = await queue.upsertJobScheduler(
        id,
        { every: options.everyMs, offset: schedulePhaseMs(id, options.everyMs) },
        { name: definition.name, data, opts: jobOptions(definition, options.priority) },
      );
      return { id, everyMs: options.everyMs, nextRunAt: dueAtOfScheduledJob(job.id!) };
    },
    removeSchedule: (id) => queue.removeJobScheduler(id),
    async getSchedule(id) {
      const scheduler = await queue.getJobScheduler(id);
      if (!scheduler?.every || scheduler.next === undefined) return undefined;
      return { id, everyMs: scheduler.every, nextRunAt: scheduler.next };
    },
  };
}

async function runOnBull<Data>(job: Job, processor: JobProcessor<Data>, work: WorkOptions<Data>): Promise<void> {
  try {
    await attempt(runOf<Data>(job), processor, work);
  } catch (error) {
    // BullMQ skips the remaining attempts only for its own error class.
    if (error instanceof UnrecoverableJobError) throw new UnrecoverableError(error.message);
    throw error;
  }
}

function runOf<Data>(job: Job): JobRun<Data> {
  const common = { data: job.data as Data, attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 };
  if (job.repeatJobKey) {
    const dueAt = dueAtOfScheduledJob(job.id!);
    return { ...common, id: `${job.repeatJobKey}:${dueAt}`, dueAt, scheduleId: job.repeatJobKey };
  }
  return { ...common, id: fromBullJobId(job.id!), dueAt: job.timestamp + (job.opts.delay ?? 0) };
}
