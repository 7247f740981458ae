import { isCoreError } from '../errors.js';
import type { FetchedPage, PageFetcher, PageRequest } from '../pages/types.js';
import { systemClock, type Clock } from './clock.js';
import { outcomeClassOf, OUTCOME_POLICY, type OutcomeClass } from './outcome-class.js';
import type { ResilientPageRequest } from './types.js';

export interface RetryOptions {
  /** Attempts in all, the first included (1 = never retry). */
  readonly maxAttempts: number;
  /** Back-off cap of the first retry; doubles each retry up to maxDelayMs. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /**
   * An attempt is only started when at least this much of the deadline is left after the back-off
   * (a fetch that cannot finish is wasted load on the marketplace).
   */
  readonly minAttemptMs?: number;
  readonly clock?: Clock;
  /** Uniform [0, 1); injectable for tests. */
  readonly random?: () => number;
  /** Only idempotent fetches are retried. Every page fetch is a GET today; the seam is for POSTs. */
  readonly isIdempotent?: (request: PageRequest) => boolean;
  readonly onRetry?: (event: { request: PageRequest; attempt: number; delayMs: number; outcome: OutcomeClass }) => void;
}

/** Full-jitter exponential back-off (AWS architecture blog): uniform in [0, min(cap, base·2^n)). */
export function backoffDelay(retry: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Retries idempotent fetches whose failure class is retryable (outcome-class.ts), with full-jitter
 * back-off, never past the call's deadline or after its signal aborted. The last error is thrown.
 */
export function withRetries(inner: PageFetcher, options: RetryOptions): PageFetcher {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const minAttemptMs = options.minAttemptMs ?? 50;
  return {
    async fetchPage(request: ResilientPageRequest): Promise<FetchedPage> {
      const idempotent = options.isIdempotent?.(request) ?? true;
      for (let attempt = 1; ; attempt++) {
        try {
          return await inner.fetchPage(request);
        } catch (error) {
          const outcome = outcomeClassOf(error);
          if (!idempotent || !OUTCOME_POLICY[outcome].retryable || attempt >= options.maxAttempts || request.signal.aborted) throw error;
          // A Retry-After the marketplace sent is a floor on the wait (it usually ends the loop: few
          // deadlines outlast it, and then the deadline check below gives up at once).
          const asked = isCoreError(error) && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
          const delayMs = Math.max(backoffDelay(attempt, options, random), asked);
          if (request.deadlineAt !== undefined && clock.now() + delayMs + minAttemptMs > request.deadlineAt) throw error;
          if (asked > options.maxDelayMs) throw error; // longer than we would ever back off: not this call
          options.onRetry?.({ request, attempt, delayMs, outcome });
          try {
            await clock.sleep(delayMs, request.signal);
          } catch {
            throw error; // the deadline passed while backing off: the fetch's own failure says more
          }
        }
      }
    },
  };
}
