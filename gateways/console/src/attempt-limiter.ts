/**
 * Sliding-window limits on failed attempts (sign-in per email and per IP; sign-up per IP), kept in
 * the UserStore so every replica counts together. Buckets are hashed: no emails or IPs in keys.
 */
import { createHash } from 'node:crypto';
import { ConsoleError } from './errors.js';
import type { UserStore } from './store.js';

export interface AttemptLimit {
  readonly max: number;
  readonly windowMs: number;
}

export interface AttemptLimiter {
  /** Throws 429 with Retry-After when `max` attempts already fall in the window. */
  check(kind: string, subject: string, limit: AttemptLimit): Promise<void>;
  record(kind: string, subject: string, limit: AttemptLimit): Promise<void>;
  clear(kind: string, subject: string): Promise<void>;
}

export function createAttemptLimiter(store: UserStore, clock: () => number): AttemptLimiter {
  const bucket = (kind: string, subject: string) => `${kind}:${createHash('sha256').update(subject).digest('base64url')}`;
  return {
    async check(kind, subject, limit) {
      const now = clock();
      const recent = await store.recentAttempts(bucket(kind, subject), now, limit.windowMs);
      if (recent.length < limit.max) return;
      // The window frees a slot when the oldest attempt that still counts ages out.
      const freesAt = recent[recent.length - limit.max]! + limit.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((freesAt - now) / 1000));
      throw new ConsoleError(429, 'Too many attempts; try again later', { retryAfterSeconds });
    },
    async record(kind, subject, limit) {
      await store.recordAttempt(bucket(kind, subject), clock(), limit.windowMs);
    },
    async clear(kind, subject) {
      await store.clearAttempts(bucket(kind, subject));
    },
  };
}
