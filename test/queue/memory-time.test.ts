/**
 * The twin on injected time: what the shared suite can only show scaled down, at full length, in
 * milliseconds. A webhook delivery retried for about a day, and a schedule over a week of hours.
 */
import { describe, expect, it } from 'vitest';
import { ABOUT_A_DAY_OF_RETRIES_MS, createMemoryJobSystem, defineQueue } from '../../watcher/src/queue/index.js';
import { schedulePhaseMs } from '../../watcher/src/queue/schedule-times.js';
import { fakeTimers } from './fake-timers.js';

describe('in-memory twin on injected time', () => {
  it('retries a delivery 5 s, 30 s, 2 min … 8 h apart for about a day, then dead-letters it once', async () => {
    const clock = fakeTimers();
    const system = createMemoryJobSystem({ timers: clock.timers });
    const deliveries = defineQueue<{ eventId: string }>('webhook-deliveries', { retryDelaysMs: ABOUT_A_DAY_OF_RETRIES_MS });
    const attempts: number[] = [];
    const deadLetters: Array<{ attempt: number; at: number }> = [];
    system.work(deliveries, async () => {
      attempts.push(clock.now());
      throw new Error('503 from receiver');
    }, { concurrency: 1, onFinalFailure: async (run) => void deadLetters.push({ attempt: run.attempt, at: clock.now() }) });
    const start = clock.now();
    await system.queue(deliveries).add({ eventId: 'evt_1' }, { id: 'evt_1' });
    await clock.advance(2 * 86_400_000);
    expect(attempts.slice(1).map((at, i) => at - attempts[i]!)).toEqual([...ABOUT_A_DAY_OF_RETRIES_MS]);
    expect(deadLetters).toEqual([{ attempt: 11, at: attempts.at(-1)! }]);
    // 23 h 42 min 35 s from the first attempt to the last.
    expect(deadLetters[0]!.at - start).toBe(85_355_000);
    await system.close();
  });

  it('runs an hourly schedule 168 times in a week, each at its phase in the hour', async () => {
    const clock = fakeTimers();
    const system = createMemoryJobSystem({ timers: clock.timers });
    const refreshes = defineQueue<{ asin: string }>('watch-refresh');
    const dueTimes: number[] = [];
    system.work(refreshes, async (run) => void dueTimes.push(run.dueAt), { concurrency: 4 });
    await system.queue(refreshes).upsertSchedule('US:B0WEEKLONG', { everyMs: 3_600_000 }, { asin: 'B0WEEKLONG' });
    await clock.advance(7 * 86_400_000);
    expect(dueTimes).toHaveLength(168);
    const phase = schedulePhaseMs('US:B0WEEKLONG', 3_600_000) % 3_600_000;
    expect(dueTimes.every((at, i) => at % 3_600_000 === phase && (i === 0 || at - dueTimes[i - 1]! === 3_600_000))).toBe(true);
    await system.close();
  });
});
