/**
 * The job system the watcher (refreshes, webhook deliveries) and bulk jobs program against: periodic
 * schedules keyed by an id, one-off jobs with a dedup id, delay, priority and a retry schedule, and
 * workers with bounded concurrency. Two implementations keep the same behaviour, held together by one
 * suite (test/queue/job-system-suite.ts): BullMQ on a non-evicting Redis (production, any number of
 * replicas) and an in-memory twin (the one-process `npm start` without a Redis URL).
 *
 * Delivery is at least once. A run whose worker dies is run again after its lock expires, and a
 * retried attempt repeats what the failed one already did, so every processor must be idempotent
 * (key its effects by `JobRun.id`, which stays the same across re-runs and retries).
 * Times are epoch milliseconds.
 */
import type { JobPriority, QueueDefinition } from './queue-definition.js';

export type { JobPriority };

export interface AddJobOptions {
  /**
   * Dedup id: while a job with this id is waiting, delayed, retrying or running, adding it again does
   * nothing. Finished jobs are removed at once, so the same id may run again later (a redelivery).
   */
  readonly id?: string;
  /** Not run before this many milliseconds from now. */
  readonly delayMs?: number;
  /** Default 'normal'. */
  readonly priority?: JobPriority;
}

export interface ScheduleOptions {
  /** Interval between due times. */
  readonly everyMs: number;
  /** Default 'normal'. */
  readonly priority?: JobPriority;
}

export interface ScheduleState {
  readonly id: string;
  readonly everyMs: number;
  /** The next due time: a stable phase of the id inside the interval (see schedule-times.ts). */
  readonly nextRunAt: number;
}

/** One attempt of one job, as its processor sees it. */
export interface JobRun<Data> {
  /**
   * The job's identity, stable across retries and re-runs after a crash: the dedup id of a one-off
   * job (a generated id without one), `scheduleId:dueAt` for a scheduled run.
   */
  readonly id: string;
  readonly data: Data;
  /** 1 for the first attempt; a re-run after a crash repeats the attempt number. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** When the job was due: the schedule's slot, or the add time plus its delay. */
  readonly dueAt: number;
  /** Set for runs a schedule produced. */
  readonly scheduleId?: string;
}

/** Resolves when the job is done; throwing fails the attempt (retried per the queue's schedule). */
export type JobProcessor<Data> = (run: JobRun<Data>) => Promise<void>;

export interface WorkOptions<Data> {
  /** Jobs this worker runs at once. */
  readonly concurrency: number;
  /**
   * Runs once when a job fails for good (its last attempt, or an UnrecoverableJobError): the
   * dead-letter hook. It runs inside that attempt, before the failure is recorded, so a crash during
   * it re-runs the attempt and the hook with it (at least once, like everything here).
   */
  readonly onFinalFailure?: (run: JobRun<Data>, error: Error) => Promise<void>;
}

export interface JobQueue<Data> {
  readonly name: string;
  /** Adds a one-off job; resolves with its id (the dedup id when given). */
  add(data: Data, options?: AddJobOptions): Promise<string>;
  /**
   * Adds many one-off jobs in one round trip (a bulk job's chunks), each as `add` would; resolves
   * with their ids in order. Not atomic across jobs on BullMQ: a failure may leave some added.
   */
  addBulk(jobs: ReadonlyArray<{ readonly data: Data; readonly options?: AddJobOptions }>): Promise<string[]>;
  /**
   * Creates the schedule `id` or replaces it. Upserting the same interval again keeps the pending due
   * time (restarts may re-upsert every schedule); a new interval or new data replaces the pending run.
   */
  upsertSchedule(id: string, options: ScheduleOptions, data: Data): Promise<ScheduleState>;
  /** Stops the schedule and drops its pending run; a run already started finishes. False if unknown. */
  removeSchedule(id: string): Promise<boolean>;
  getSchedule(id: string): Promise<ScheduleState | undefined>;
}

export interface JobWorker {
  /** Takes no new job and resolves when the running ones have finished. */
  close(): Promise<void>;
}

export interface JobSystem {
  readonly kind: 'memory' | 'bullmq';
  queue<Data>(definition: QueueDefinition<Data>): JobQueue<Data>;
  /** Starts a worker on the definition's queue; every replica may run one. */
  work<Data>(definition: QueueDefinition<Data>, processor: JobProcessor<Data>, options: WorkOptions<Data>): JobWorker;
  /** True when jobs can be added (Redis answers); never rejects. */
  ready(): Promise<boolean>;
  /** Closes the workers (waiting for running jobs), then the queues and connections. */
  close(): Promise<void>;
}

/** Thrown by a processor when another attempt cannot help (a 4xx from a webhook receiver, bad data). */
export class UnrecoverableJobError extends Error {
  override readonly name = 'UnrecoverableJobError';
}
