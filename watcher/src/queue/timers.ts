/**
 * Time as the in-memory twin sees it, injectable so tests can run a day of retries in a moment.
 * Production code never uses this: BullMQ keeps time in Redis.
 */
export interface Timers {
  now(): number;
  /** Calls `run` after `ms`; the returned function cancels it. */
  after(ms: number, run: () => void): () => void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  after(ms, run) {
    const handle = setTimeout(run, Math.max(0, ms));
    return () => clearTimeout(handle);
  },
};
