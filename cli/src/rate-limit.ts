/**
 * Honouring 429: the plan's rate limit is per key, so when one call is told to wait, every call of
 * this run waits (a shared gate), then the refused call is sent again. Only 429 is retried: it is
 * the one refusal that says the same request will succeed later; a 503's Retry-After is shown, not
 * obeyed (the marketplace may stay blocked). Attempts are bounded, so a run always ends.
 */
import type { ApiAnswer } from './http.js';

export interface RateLimitOptions {
  /** Attempts per call, the first included (default 6). */
  readonly maxAttempts?: number;
  /** Longest single wait honoured, in seconds (default 60): a longer Retry-After ends the call with its 429. */
  readonly maxWaitSeconds?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told each time the run starts waiting, with the seconds to wait (progress display). */
  readonly onWait?: (seconds: number) => void;
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Wraps a sender so that 429s wait for Retry-After (shared by every call made through it) and retry. */
export function honourRateLimits<A extends unknown[], R extends ApiAnswer = ApiAnswer>(sendOnce: (...args: A) => Promise<R>, options: RateLimitOptions = {}): (...args: A) => Promise<R> {
  const maxAttempts = options.maxAttempts ?? 6;
  const maxWaitSeconds = options.maxWaitSeconds ?? 60;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  let resumeAt = 0;
  return async (...args) => {
    for (let attempt = 1; ; attempt += 1) {
      const wait = resumeAt - now();
      if (wait > 0) await sleep(wait);
      const answer = await sendOnce(...args);
      if (answer.status !== 429 || attempt >= maxAttempts) return answer;
      // Without a readable Retry-After the gateway's own floor (1 s) is assumed.
      const seconds = retryAfterSeconds(answer.headers, now()) ?? 1;
      if (seconds > maxWaitSeconds) return answer;
      const until = now() + seconds * 1000;
      if (until > resumeAt) {
        resumeAt = until;
        options.onWait?.(seconds);
      }
    }
  };
}
