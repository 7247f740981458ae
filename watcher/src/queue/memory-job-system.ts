/**
 * The in-memory twin of the job system, for the one-process `npm start` without a Redis URL. Same
 * interface and behaviour as BullMQ (one suite runs against both); what it lacks is durability:
 * pending jobs live in this process and die with it, which is acceptable only because that process
 * is the whole deployment (see docs/engineering-watches.md, Scheduling).
 */
import { attempt, asError, isFinalFailure } from './final-failure.js';
import type { AddJobOptions, JobProcessor, JobQueue, JobRun, JobSystem, JobWorker, WorkOptions } from './job-system.js';
import { MemoryBroker, type MemoryJob } from './memory-broker.js';
import { maxAttemptsOf, retryDelayAfter, type QueueDefinition } from './queue-definition.js';
import { checkEveryMs } from './schedule-times.js';
import { realTimers, type Timers } from './timers.js';

export interface MemoryJobSystemOptions {
  /** Shared by systems that stand for replicas of one deployment; a private one otherwise. */
  readonly broker?: MemoryBroker;
  readonly timers?: Timers;
}

export function createMemoryBroker(timers: Timers = realTimers): MemoryBroker {
  return new MemoryBroker(timers);
}

export function createMemoryJobSystem(options: MemoryJobSystemOptions = {}): JobSystem {
  const ownsBroker = !options.broker;
  const broker = options.broker ?? createMemoryBroker(options.timers);
  const workers = new Set<JobWorker>();
  return {
    kind: 'memory',
    queue: <Data>(definition: QueueDefinition<Data>) => memoryQueue(broker, definition),
    work<Data>(definition: QueueDefinition<Data>, processor: JobProcessor<Data>, workOptions: WorkOptions<Data>) {
      const worker = memoryWorker(broker, definition, processor, workOptions);
      workers.add(worker);
      return worker;
    },
    ready: async () => true,
    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
      if (ownsBroker) broker.dispose();
    },
  };
}

function memoryQueue<Data>(broker: MemoryBroker, definition: QueueDefinition<Data>): JobQueue<Data> {
  const name = definition.name;
  // JSON round trip: BullMQ stores data as JSON, so the twin must not pass live objects through.
  const addOne = (data: Data, options: AddJobOptions = {}) =>
    broker.add(name, { id: options.id, data: jsonCopy(data), priority: options.priority ?? 'normal', delayMs: options.delayMs ?? 0, maxAttempts: maxAttemptsOf(definition) });
  return {
    name,
    add: async (data, options) => addOne(data, options),
    addBulk: async (jobs) => jobs.map(({ data, options }) => addOne(data, options)),
    async upsertSchedule(id, options, data) {
      checkEveryMs(options.everyMs);
      return broker.upsertSchedule(name, id, options.everyMs, options.priority ?? 'normal', jsonCopy(data), maxAttemptsOf(definition));
    },
    removeSchedule: async (id) => broker.removeSchedule(name, id),
    getSchedule: async (id) => broker.getSchedule(name, id),
  };
}

function memoryWorker<Data>(broker: MemoryBroker, definition: QueueDefinition<Data>, processor: JobProcessor<Data>, options: WorkOptions<Data>): JobWorker {
  if (!(Number.isSafeInteger(options.concurrency) && options.concurrency > 0)) throw new Error(`concurrency must be a whole number ≥ 1, got ${options.concurrency}`);
  const name = definition.name;
  const running = new Set<Promise<void>>();
  let closing = false;

  const runJob = async (job: MemoryJob) => {
    const run = toRun<Data>(job);
    try {
      await attempt(run, processor, options);
      broker.complete(name, job);
    } catch (thrown) {
      const error = asError(thrown);
      broker.fail(name, job, isFinalFailure(run, error) ? { final: true } : { final: false, delayMs: retryDelayAfter(definition, run.attempt) });
    }
  };

  const pull = () => {
    while (!closing && running.size < options.concurrency) {
      const job = broker.take(name);
      if (!job) return;
      const done = runJob(job).finally(() => {
        running.delete(done);
        pull();
      });
      running.add(done);
    }
  };

  const unsubscribe = broker.subscribe(name, pull);
  // Like a BullMQ worker, start after the caller's synchronous code (it may add jobs right after).
  queueMicrotask(pull);
  return {
    async close() {
      closing = true;
      unsubscribe();
      while (running.size > 0) await Promise.all(running);
    },
  };
}

function toRun<Data>(job: MemoryJob): JobRun<Data> {
  return {
    id: job.runId,
    data: job.data as Data,
    attempt: job.attemptsMade + 1,
    maxAttempts: job.maxAttempts,
    dueAt: job.dueAt,
    ...(job.scheduleId !== undefined ? { scheduleId: job.scheduleId } : {}),
  };
}

function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
