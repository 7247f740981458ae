import { describe, expect, it } from 'vitest';
import { nextDueAt, schedulePhaseMs } from './schedule-times.js';

describe('schedulePhaseMs', () => {
  it('is stable per id and interval and lies in (0, interval]', () => {
    expect(schedulePhaseMs('US:B0000000001', 900_000)).toBe(schedulePhaseMs('US:B0000000001', 900_000));
    for (let i = 0; i < 1_000; i++) {
      const phase = schedulePhaseMs(`US:B${i}`, 7);
      expect(phase).toBeGreaterThan(0);
      expect(phase).toBeLessThanOrEqual(7);
    }
  });

  it('changes with the interval, so a new interval gets a new slot', () => {
    const phases = new Set([60_000, 120_000, 900_000].map((every) => schedulePhaseMs('US:B0000000001', every) % 60_000));
    expect(phases.size).toBeGreaterThan(1);
  });
});

describe('nextDueAt (BullMQ getJobSchedulerEveryNextMillis with an offset)', () => {
  it('puts a new schedule at its phase in the current interval, or the next one when that passed', () => {
    expect(nextDueAt(undefined, 1_000, 10_200, 500)).toBe(10_500);
    expect(nextDueAt(undefined, 1_000, 10_700, 500)).toBe(11_500);
    expect(nextDueAt(undefined, 1_000, 10_500, 500)).toBe(11_500);
  });

  it('continues one interval after the previous run, and catches up to the next slot after a gap', () => {
    expect(nextDueAt(10_500, 1_000, 10_600, 500)).toBe(11_500);
    expect(nextDueAt(10_500, 1_000, 11_500, 500)).toBe(11_500);
    expect(nextDueAt(10_500, 1_000, 14_200, 500)).toBe(14_500);
    expect(nextDueAt(10_500, 1_000, 14_600, 500)).toBe(15_500);
  });
});
