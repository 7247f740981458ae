/**
 * A queue declared once and used by producers and workers alike, so both agree on its name, its data
 * type and its retry schedule (BullMQ takes the attempt count from the producer and the back-off from
 * the worker; one definition keeps the two from drifting apart).
 */
import type { JobPriority } from './job-system.js';

export interface QueueDefinition<Data> {
  readonly name: string;
  /**
   * Delay before each retry: the first entry before attempt 2, the second before attempt 3, and so on.
   * Empty means one attempt. The attempt count is one more than the number of entries.
   */
  readonly retryDelaysMs: readonly number[];
  /** Never set: carries the data type from the definition to `queue()` and `work()`. */
  readonly dataType?: Data;
}

/** Queue names become Redis key segments; BullMQ forbids ':' in them. */
const QUEUE_NAME = /^[a-z][a-z0-9-]{0,63}$/;

export function defineQueue<Data>(name: string, options: { retryDelaysMs?: readonly number[] } = {}): QueueDefinition<Data> {
  if (!QUEUE_NAME.test(name)) throw new Error(`queue name must match ${QUEUE_NAME}, got "${name}"`);
  const retryDelaysMs = [...(options.retryDelaysMs ?? [])];
  for (const delay of retryDelaysMs) {
    if (!Number.isSafeInteger(delay) || delay < 0) throw new Error(`retry delays are whole milliseconds ≥ 0, got ${delay}`);
  }
  return Object.freeze({ name, retryDelaysMs: Object.freeze(retryDelaysMs) });
}

export function maxAttemptsOf(definition: QueueDefinition<unknown>): number {
  return definition.retryDelaysMs.length + 1;
}

/** The wait after `attemptsMade` failed attempts (1 → the first entry). */
export function retryDelayAfter(definition: QueueDefinition<unknown>, attemptsMade: number): number {
  const delays = definition.retryDelaysMs;
  return delays[Math.min(attemptsMade, delays.length) - 1] ?? 0;
}

/**
 * Webhook deliveries (issue 14): retries for about a day, then dead-lettered. 5 s, 30 s, 2 min,
 * 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h = 23 h 42 min 35 s after the first attempt, 11 attempts.
 */
export const ABOUT_A_DAY_OF_RETRIES_MS: readonly number[] = Object.freeze(
  [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800].map((seconds) => seconds * 1_000),
);

/** Lower runs first. BullMQ runs unprioritized jobs before all prioritized ones, so every job gets one. */
export const PRIORITY_RANK: Readonly<Record<JobPriority, number>> = Object.freeze({ interactive: 1, normal: 2, bulk: 3 });
