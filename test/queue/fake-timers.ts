import type { Timers } from '../../watcher/src/queue/index.js';

/**
 * Timers the test moves: `advance` fires every due timer in time order, letting the processors'
 * promises settle between firings, so a day of retries takes milliseconds.
 */
export function fakeTimers(start = Date.parse('2026-03-01T12:00:00Z')) {
  let now = start;
  let nextId = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const timers: Timers = {
    now: () => now,
    after(ms, run) {
      const id = nextId++;
      pending.set(id, { at: now + Math.max(0, ms), run });
      return () => void pending.delete(id);
    },
  };
  return {
    timers,
    now: () => now,
    async advance(ms: number) {
      const target = now + ms;
      await settle();
      for (;;) {
        const due = [...pending.entries()].filter(([, timer]) => timer.at <= target).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].run();
        await settle();
      }
      now = target;
      await settle();
    },
  };
}
