/**
 * The behaviour suite every job system must pass: BullMQ on a real redis-server and the in-memory
 * twin run the same tests (the twin is held to BullMQ's behaviour by it, as the memory ledger is by
 * test/metering/ledger-suite.ts). Time is real and intervals are scaled down to a few hundred
 * milliseconds, so each test takes a second or two; waits poll with a deadline, never sleep blindly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UnrecoverableJobError, defineQueue, type JobRun, type JobSystem, type QueueDefinition } from '../../watcher/src/queue/index.js';
import { schedulePhaseMs } from '../../watcher/src/queue/schedule-times.js';

export interface JobSystemHarness {
  /** A job system standing for one replica; systems opened in one test share one backing store. */
  open(): Promise<JobSystem>;
  /** Ends the test's shared store (the twin's broker); systems are closed by the suite before. */
  dispose(): Promise<void>;
}

interface Payload {
  readonly label: string;
}

interface Recorded extends JobRun<Payload> {
  readonly startedAt: number;
  readonly finishedAt?: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (after `refresh`, when given, between tries); fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs: number, what: string, refresh?: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await refresh?.();
    if (check()) return;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
    await sleep(refresh ? 50 : 10);
  }
}

let queueCounter = 0;
/** A fresh queue per test, so tests sharing one redis-server never see each other's jobs. */
function freshQueue(retryDelaysMs: number[] = []): QueueDefinition<Payload> {
  return defineQueue<Payload>(`suite-${process.pid}-${++queueCounter}`, { retryDelaysMs });
}

/** Scheduled due times may be served a little early by BullMQ's clock reads; a few ms of slack. */
const EARLY_SLACK_MS = 5;

export function jobSystemSuite(name: string, makeHarness: () => JobSystemHarness): void {
  describe(`job system behaviour (${name})`, () => {
    let harness: JobSystemHarness;
    const opened: JobSystem[] = [];
    const open = async () => {
      harness ??= makeHarness();
      const system = await harness.open();
      opened.push(system);
      return system;
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((system) => system.close()));
      await harness?.dispose();
      harness = undefined!;
    });

    /** A processor that records every attempt it starts. */
    function recorder(work: (run: JobRun<Payload>) => Promise<void> = async () => {}) {
      const runs: Recorded[] = [];
      const processor = async (run: JobRun<Payload>) => {
        const entry: Recorded = { ...run, startedAt: Date.now() };
        runs.push(entry);
        await work(run);
        Object.assign(entry, { finishedAt: Date.now() });
      };
      return { runs, processor };
    }

    it('runs a schedule once per due time, at its interval and phase, while two replicas compete', async () => {
      const definition = freshQueue();
      const [a, b] = [await open(), await open()];
      const { runs, processor } = recorder();
      a.work(definition, processor, { concurrency: 2 });
      b.work(definition, processor, { concurrency: 2 });
      const everyMs = 300;
      const created = Date.now();
      const state = await a.queue(definition).upsertSchedule('US:B0SCHEDULE', { everyMs }, { label: 'tick' });
      expect(state.nextRunAt).toBeGreaterThan(created);
      expect(state.nextRunAt).toBeLessThanOrEqual(Date.now() + everyMs);
      await until(() => runs.length >= 5, 5_000, 'five scheduled runs');
      const dueTimes = runs.map((run) => run.dueAt);
      expect(new Set(runs.map((run) => run.id)).size).toBe(runs.length);
      expect(dueTimes[0]).toBe(state.nextRunAt);
      for (let i = 1; i < dueTimes.length; i++) expect(dueTimes[i]! - dueTimes[i - 1]!).toBe(everyMs);
      const phase = schedulePhaseMs('US:B0SCHEDULE', everyMs) % everyMs;
      for (const run of runs) {
        expect(run.dueAt % everyMs).toBe(phase);
        expect(run.startedAt).toBeGreaterThanOrEqual(run.dueAt - EARLY_SLACK_MS);
        expect(run).toMatchObject({ scheduleId: 'US:B0SCHEDULE', id: `US:B0SCHEDULE:${run.dueAt}`, data: { label: 'tick' }, attempt: 1 });
      }
      const next = await b.queue(definition).getSchedule('US:B0SCHEDULE');
      expect(next).toMatchObject({ id: 'US:B0SCHEDULE', everyMs });
      expect(next!.nextRunAt).toBeGreaterThan(dueTimes.at(-1)!);
    }, 10_000);

    it('keeps the pending due time when the same schedule is upserted again, and spreads ids over the interval', async () => {
      const queue = (await open()).queue(freshQueue());
      const first = await queue.upsertSchedule('US:B0000000001', { everyMs: 60_000 }, { label: 'a' });
      const again = await queue.upsertSchedule('US:B0000000001', { everyMs: 60_000 }, { label: 'b' });
      expect(again).toEqual(first);
      expect(first.nextRunAt % 60_000).toBe(schedulePhaseMs('US:B0000000001', 60_000) % 60_000);
      const other = await queue.upsertSchedule('US:B0000000002', { everyMs: 60_000 }, { label: 'a' });
      expect(other.nextRunAt).not.toBe(first.nextRunAt);
    });

    it('stops running a schedule once it is removed', async () => {
      const definition = freshQueue();
      const system = await open();
      const queue = system.queue(definition);
      let removal: Promise<boolean> | undefined;
      const { runs, processor } = recorder(async () => {
        // Removed from inside the second run: the next run is pending (delayed), not yet due.
        if (runs.length === 2) removal = queue.removeSchedule('UK:B0REMOVED');
      });
      system.work(definition, processor, { concurrency: 1 });
      await queue.upsertSchedule('UK:B0REMOVED', { everyMs: 200 }, { label: 'tick' });
      await until(() => removal !== undefined, 3_000, 'two runs');
      expect(await removal).toBe(true);
      await sleep(700);
      expect(runs).toHaveLength(2);
      expect(await queue.getSchedule('UK:B0REMOVED')).toBeUndefined();
      expect(await queue.removeSchedule('UK:B0REMOVED')).toBe(false);
    }, 10_000);

    it('replaces the interval and the data when a schedule is upserted with new ones', async () => {
      const definition = freshQueue();
      const system = await open();
      const queue = system.queue(definition);
      const { runs, processor } = recorder();
      system.work(definition, processor, { concurrency: 1 });
      await queue.upsertSchedule('DE:B0REPLACED', { everyMs: 150 }, { label: 'fast' });
      await until(() => runs.length >= 2, 3_000, 'two fast runs');
      const replaced = await queue.upsertSchedule('DE:B0REPLACED', { everyMs: 600 }, { label: 'slow' });
      expect(replaced.everyMs).toBe(600);
      expect(replaced.nextRunAt % 600).toBe(schedulePhaseMs('DE:B0REPLACED', 600) % 600);
      await until(() => runs.filter((run) => run.data.label === 'slow').length >= 2, 4_000, 'two slow runs');
      const slow = runs.filter((run) => run.data.label === 'slow');
      expect(slow[0]!.dueAt).toBe(replaced.nextRunAt);
      expect(slow[1]!.dueAt - slow[0]!.dueAt).toBe(600);
      // No fast run was due after the replacement.
      expect(runs.filter((run) => run.data.label === 'fast' && run.dueAt > replaced.nextRunAt)).toEqual([]);
    }, 10_000);

    it('adds a job with a dedup id once while it is pending, and again after it finished', async () => {
      const definition = freshQueue();
      const system = await open();
      const queue = system.queue(definition);
      expect(await queue.add({ label: 'first' }, { id: 'US:B0DEDUP:1' })).toBe('US:B0DEDUP:1');
      expect(await queue.add({ label: 'second' }, { id: 'US:B0DEDUP:1' })).toBe('US:B0DEDUP:1');
      // Ids that look like encodings or integers are ids like any other.
      await queue.add({ label: 'percent' }, { id: 'a%3Ab' });
      await queue.add({ label: 'integer' }, { id: '42' });
      const generated = await queue.add({ label: 'no id' });
      const { runs, processor } = recorder();
      system.work(definition, processor, { concurrency: 1 });
      await until(() => runs.length >= 4, 3_000, 'four runs');
      await sleep(200);
      expect(runs.map((run) => [run.id, run.data.label]).sort()).toEqual(
        [['42', 'integer'], ['US:B0DEDUP:1', 'first'], ['a%3Ab', 'percent'], [generated, 'no id']].sort(),
      );
      await until(() => runs.every((run) => run.finishedAt !== undefined), 1_000, 'all finished');
      await queue.add({ label: 'redelivery' }, { id: 'US:B0DEDUP:1' });
      await until(() => runs.length === 5, 3_000, 'the redelivery');
      expect(runs[4]).toMatchObject({ id: 'US:B0DEDUP:1', data: { label: 'redelivery' } });
    }, 10_000);

    it('adds many jobs in one call, each deduplicated by its id as a single add is', async () => {
      const definition = freshQueue();
      const system = await open();
      const queue = system.queue(definition);
      await queue.add({ label: 'earlier' }, { id: 'job:1' });
      const ids = await queue.addBulk([
        { data: { label: 'again' }, options: { id: 'job:1', priority: 'bulk' } },
        { data: { label: 'second' }, options: { id: 'job:2', priority: 'bulk' } },
        { data: { label: 'third' }, options: { id: 'job:3', priority: 'bulk' } },
      ]);
      expect(ids).toEqual(['job:1', 'job:2', 'job:3']);
      const { runs, processor } = recorder();
      system.work(definition, processor, { concurrency: 1 });
      await until(() => runs.length >= 3, 3_000, 'three runs');
      await sleep(200);
      expect(runs.map((run) => [run.id, run.data.label])).toEqual([['job:1', 'earlier'], ['job:2', 'second'], ['job:3', 'third']]);
    }, 10_000);

    it('does not run a delayed job before its delay', async () => {
      const definition = freshQueue();
      const system = await open();
      const { runs, processor } = recorder();
      system.work(definition, processor, { concurrency: 2 });
      const queue = system.queue(definition);
      const addedAt = Date.now();
      await queue.add({ label: 'later' }, { delayMs: 500 });
      await queue.add({ label: 'now' });
      await until(() => runs.length === 2, 3_000, 'both jobs');
      expect(runs.map((run) => run.data.label)).toEqual(['now', 'later']);
      const later = runs[1]!;
      expect(later.startedAt - addedAt).toBeGreaterThanOrEqual(500 - EARLY_SLACK_MS);
      expect(later.startedAt - addedAt).toBeLessThan(1_500);
      expect(Math.abs(later.dueAt - (addedAt + 500))).toBeLessThan(100);
    }, 10_000);

    it('runs interactive jobs before normal ones and normal before bulk, first in first out within each', async () => {
      const definition = freshQueue();
      const system = await open();
      const queue = system.queue(definition);
      await queue.add({ label: 'bulk 1' }, { priority: 'bulk' });
      await queue.add({ label: 'bulk 2' }, { priority: 'bulk' });
      await queue.add({ label: 'normal 1' });
      await queue.add({ label: 'interactive 1' }, { priority: 'interactive' });
      await queue.add({ label: 'bulk 3' }, { priority: 'bulk' });
      await queue.add({ label: 'interactive 2' }, { priority: 'interactive' });
      await queue.add({ label: 'normal 2' }, { priority: 'normal' });
      const { runs, processor } = recorder();
      system.work(definition, processor, { concurrency: 1 });
      await until(() => runs.length === 7, 3_000, 'seven jobs');
      expect(runs.map((run) => run.data.label)).toEqual(['interactive 1', 'interactive 2', 'normal 1', 'normal 2', 'bulk 1', 'bulk 2', 'bulk 3']);
    }, 10_000);

    it('never runs more jobs at once than the worker concurrency', async () => {
      const definition = freshQueue();
      const system = await open();
      let inFlight = 0;
      let most = 0;
      const { runs, processor } = recorder(async () => {
        most = Math.max(most, ++inFlight);
        await sleep(100);
        inFlight--;
      });
      system.work(definition, processor, { concurrency: 3 });
      for (let i = 0; i < 9; i++) await system.queue(definition).add({ label: `job ${i}` });
      await until(() => runs.filter((run) => run.finishedAt).length === 9, 5_000, 'nine jobs');
      expect(most).toBe(3);
    }, 10_000);

    it('retries a failing job after each delay of its schedule, then runs the final-failure hook once', async () => {
      const retryDelaysMs = [100, 300, 600];
      const definition = freshQueue(retryDelaysMs);
      const system = await open();
      const finalFailures: Array<{ run: JobRun<Payload>; message: string }> = [];
      const { runs, processor } = recorder(async (run) => {
        throw new Error(`receiver down (attempt ${run.attempt})`);
      });
      system.work(definition, processor, { concurrency: 1, onFinalFailure: async (run, error) => void finalFailures.push({ run, message: error.message }) });
      await system.queue(definition).add({ label: 'delivery' }, { id: 'evt_1' });
      await until(() => finalFailures.length === 1, 5_000, 'the final failure');
      await sleep(400);
      expect(runs.map((run) => [run.id, run.attempt, run.maxAttempts])).toEqual([1, 2, 3, 4].map((n) => ['evt_1', n, 4]));
      for (let i = 1; i < runs.length; i++) {
        const gap = runs[i]!.startedAt - runs[i - 1]!.startedAt;
        expect(gap).toBeGreaterThanOrEqual(retryDelaysMs[i - 1]! - EARLY_SLACK_MS);
        expect(gap).toBeLessThan(retryDelaysMs[i - 1]! + 500);
      }
      expect(finalFailures).toHaveLength(1);
      expect(finalFailures[0]).toMatchObject({ run: { id: 'evt_1', attempt: 4 }, message: 'receiver down (attempt 4)' });
    }, 10_000);

    it('does not run the final-failure hook for a job that succeeds on a retry', async () => {
      const definition = freshQueue([50, 50]);
      const system = await open();
      const finalFailures: unknown[] = [];
      const { runs, processor } = recorder(async (run) => {
        if (run.attempt === 1) throw new Error('timeout');
      });
      system.work(definition, processor, { concurrency: 1, onFinalFailure: async (run) => void finalFailures.push(run) });
      await system.queue(definition).add({ label: 'delivery' });
      await until(() => runs.some((run) => run.finishedAt), 3_000, 'the second attempt');
      await sleep(300);
      expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
      expect(finalFailures).toEqual([]);
    }, 10_000);

    it('does not retry a job that throws UnrecoverableJobError, and dead-letters it once', async () => {
      const definition = freshQueue([50, 50, 50]);
      const system = await open();
      const finalFailures: Error[] = [];
      const { runs, processor } = recorder(async () => {
        throw new UnrecoverableJobError('410 Gone');
      });
      system.work(definition, processor, { concurrency: 1, onFinalFailure: async (_run, error) => void finalFailures.push(error) });
      await system.queue(definition).add({ label: 'delivery' });
      await until(() => finalFailures.length === 1, 3_000, 'the final failure');
      await sleep(400);
      expect(runs.map((run) => run.attempt)).toEqual([1]);
      expect(finalFailures.map((error) => [error.name, error.message])).toEqual([['UnrecoverableJobError', '410 Gone']]);
    }, 10_000);

    it('closes a worker only after its running job finished, leaving waiting jobs to the next worker', async () => {
      const definition = freshQueue();
      const system = await open();
      const { runs, processor } = recorder(async () => void (await sleep(400)));
      const worker = system.work(definition, processor, { concurrency: 1 });
      const queue = system.queue(definition);
      await queue.add({ label: 'running' });
      await queue.add({ label: 'waiting' });
      await until(() => runs.length === 1, 3_000, 'the first job');
      await worker.close();
      expect(runs).toHaveLength(1);
      expect(runs[0]!.finishedAt).toBeDefined();
      const next = recorder();
      system.work(definition, next.processor, { concurrency: 1 });
      await until(() => next.runs.length === 1, 3_000, 'the waiting job on the next worker');
      expect(next.runs[0]!.data.label).toBe('waiting');
    }, 10_000);
  });
}
