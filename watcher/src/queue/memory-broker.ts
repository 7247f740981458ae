/**
 * The in-memory twin's "Redis": every queue's jobs and schedules in one process, shared by the job
 * systems attached to it (as replicas share one Redis). Each step mirrors what BullMQ's Lua scripts do
 * in one atomic call (addJob, addJobScheduler, updateJobScheduler on moving a run to active,
 * removeJobScheduler, moveToFinished, moveToDelayed), including their corner cases, so that the one
 * suite holds both to the same behaviour. What it cannot mirror is durability and other processes.
 */
import { PRIORITY_RANK } from './queue-definition.js';
import { nextDueAt, schedulePhaseMs } from './schedule-times.js';
import type { JobPriority, ScheduleState } from './job-system.js';
import type { Timers } from './timers.js';

export interface MemoryJob {
  /** Unique per queue: `job:<id>` for one-off jobs, `repeat:<scheduleId>:<dueAt>` for scheduled runs. */
  readonly key: string;
  /** What the processor sees as `JobRun.id`. */
  readonly runId: string;
  readonly data: unknown;
  readonly rank: number;
  readonly dueAt: number;
  readonly maxAttempts: number;
  readonly scheduleId?: string;
  attemptsMade: number;
  state: 'delayed' | 'waiting' | 'active';
  cancelTimer?: () => void;
}

interface MemorySchedule {
  readonly everyMs: number;
  readonly phaseMs: number;
  readonly rank: number;
  readonly data: unknown;
  readonly maxAttempts: number;
  /** Due time of the pending run (the `repeat` sorted-set score in BullMQ). */
  nextRunAt: number;
}

class QueueState {
  readonly jobs = new Map<string, MemoryJob>();
  /** Waiting jobs by priority rank, each first in, first out. */
  readonly waiting = new Map<number, MemoryJob[]>(
    Object.values(PRIORITY_RANK).sort((a, b) => a - b).map((rank) => [rank, []]),
  );
  readonly schedules = new Map<string, MemorySchedule>();
  /** Workers to wake when a job becomes waiting. */
  readonly wakers = new Set<() => void>();
  nextGeneratedId = 1;
}

export interface NewJob {
  readonly id?: string;
  readonly data: unknown;
  readonly priority: JobPriority;
  readonly delayMs: number;
  readonly maxAttempts: number;
}

export class MemoryBroker {
  private readonly queues = new Map<string, QueueState>();

  constructor(readonly timers: Timers) {}

  private queue(name: string): QueueState {
    let state = this.queues.get(name);
    if (!state) this.queues.set(name, (state = new QueueState()));
    return state;
  }

  add(queueName: string, job: NewJob): string {
    const queue = this.queue(queueName);
    const runId = job.id ?? String(queue.nextGeneratedId++);
    const key = `job:${runId}`;
    // BullMQ's addJob: an existing id (in any state we keep) means the add does nothing.
    if (queue.jobs.has(key)) return runId;
    const now = this.timers.now();
    this.enqueue(queue, { key, runId, data: job.data, rank: PRIORITY_RANK[job.priority], dueAt: now + job.delayMs, maxAttempts: job.maxAttempts, attemptsMade: 0, state: 'delayed' });
    return runId;
  }

  upsertSchedule(queueName: string, id: string, everyMs: number, priority: JobPriority, data: unknown, maxAttempts: number): ScheduleState {
    const queue = this.queue(queueName);
    const now = this.timers.now();
    const existing = queue.schedules.get(id);
    const sameInterval = existing?.everyMs === everyMs;
    const phaseMs = schedulePhaseMs(id, everyMs);
    // addJobScheduler: a pending run not yet started is replaced (new data, priority or interval).
    const pending = existing && queue.jobs.get(scheduledKey(id, existing.nextRunAt));
    const replaced = pending !== undefined && pending.state !== 'active';
    if (replaced) this.drop(queue, pending);
    let nextRunAt = replaced && sameInterval ? existing.nextRunAt : nextDueAt(sameInterval ? existing.nextRunAt : undefined, everyMs, now, phaseMs);
    // A run of that slot still running: walk forward to a free slot, as the script does.
    while (queue.jobs.has(scheduledKey(id, nextRunAt))) nextRunAt += everyMs;
    const schedule: MemorySchedule = { everyMs, phaseMs, rank: PRIORITY_RANK[priority], data, maxAttempts, nextRunAt };
    queue.schedules.set(id, schedule);
    this.enqueueRun(queue, id, schedule, now);
    return { id, everyMs, nextRunAt };
  }

  /** removeJobScheduler: forgets the schedule and drops its pending run only while that run is delayed. */
  removeSchedule(queueName: string, id: string): boolean {
    const queue = this.queue(queueName);
    const schedule = queue.schedules.get(id);
    if (!schedule) return false;
    const pending = queue.jobs.get(scheduledKey(id, schedule.nextRunAt));
    if (pending?.state === 'delayed') this.drop(queue, pending);
    queue.schedules.delete(id);
    return true;
  }

  getSchedule(queueName: string, id: string): ScheduleState | undefined {
    const schedule = this.queue(queueName).schedules.get(id);
    return schedule && { id, everyMs: schedule.everyMs, nextRunAt: schedule.nextRunAt };
  }

  /** moveToActive: the next waiting job by priority; a scheduled run produces the schedule's next run. */
  take(queueName: string): MemoryJob | undefined {
    const queue = this.queue(queueName);
    for (const lane of queue.waiting.values()) {
      const job = lane.shift();
      if (!job) continue;
      job.state = 'active';
      if (job.scheduleId !== undefined) this.scheduleNextRun(queue, job);
      return job;
    }
    return undefined;
  }

  complete(queueName: string, job: MemoryJob): void {
    this.queue(queueName).jobs.delete(job.key);
  }

  /** A failed attempt: removed when final, otherwise back to delayed (or waiting) after `retryDelayMs`. */
  fail(queueName: string, job: MemoryJob, retry: { final: true } | { final: false; delayMs: number }): void {
    const queue = this.queue(queueName);
    if (retry.final) {
      queue.jobs.delete(job.key);
      return;
    }
    job.attemptsMade++;
    this.park(queue, job, this.timers.now() + retry.delayMs);
  }

  /** Registers a worker's wake-up; returns the unsubscribe. */
  subscribe(queueName: string, wake: () => void): () => void {
    const queue = this.queue(queueName);
    queue.wakers.add(wake);
    return () => void queue.wakers.delete(wake);
  }

  /** Cancels every timer (the process is shutting the twin down). */
  dispose(): void {
    for (const queue of this.queues.values()) for (const job of queue.jobs.values()) job.cancelTimer?.();
    this.queues.clear();
  }

  private scheduleNextRun(queue: QueueState, run: MemoryJob): void {
    const schedule = queue.schedules.get(run.scheduleId!);
    // updateJobScheduler only continues from the schedule's current pending run.
    if (!schedule || schedule.nextRunAt !== run.dueAt) return;
    const now = this.timers.now();
    const nextRunAt = nextDueAt(run.dueAt, schedule.everyMs, now, schedule.phaseMs);
    if (queue.jobs.has(scheduledKey(run.scheduleId!, nextRunAt))) return;
    schedule.nextRunAt = nextRunAt;
    this.enqueueRun(queue, run.scheduleId!, schedule, now);
  }

  private enqueueRun(queue: QueueState, scheduleId: string, schedule: MemorySchedule, now: number): void {
    const { nextRunAt, rank, data, maxAttempts } = schedule;
    this.enqueue(queue, { key: scheduledKey(scheduleId, nextRunAt), runId: `${scheduleId}:${nextRunAt}`, data, rank, dueAt: nextRunAt, maxAttempts, scheduleId, attemptsMade: 0, state: 'delayed' }, now);
  }

  private enqueue(queue: QueueState, job: MemoryJob, now = this.timers.now()): void {
    queue.jobs.set(job.key, job);
    this.park(queue, job, Math.max(job.dueAt, now));
  }

  /** Delayed until `at`, or waiting at once when `at` has come. */
  private park(queue: QueueState, job: MemoryJob, at: number): void {
    const delay = at - this.timers.now();
    if (delay <= 0) return this.makeWaiting(queue, job);
    job.state = 'delayed';
    job.cancelTimer = this.timers.after(delay, () => {
      job.cancelTimer = undefined;
      if (queue.jobs.get(job.key) === job) this.makeWaiting(queue, job);
    });
  }

  private makeWaiting(queue: QueueState, job: MemoryJob): void {
    job.state = 'waiting';
    queue.waiting.get(job.rank)!.push(job);
    for (const wake of [...queue.wakers]) wake();
  }

  private drop(queue: QueueState, job: MemoryJob): void {
    job.cancelTimer?.();
    queue.jobs.delete(job.key);
    const lane = queue.waiting.get(job.rank)!;
    const index = lane.indexOf(job);
    if (index >= 0) lane.splice(index, 1);
  }
}

function scheduledKey(scheduleId: string, dueAt: number): string {
  return `repeat:${scheduleId}:${dueAt}`;
}
