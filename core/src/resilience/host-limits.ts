import { ErrorReason } from '@retail/contract';
import { CoreError } from '../errors.js';
import type { FetchedPage, PageFetcher, PageRequest } from '../pages/types.js';
import { abortReason, systemClock, type Clock } from './clock.js';
import { HOST_CAP_CAUSE_PREFIX } from './outcome-class.js';
import { hostOf } from './types.js';

/** At most `limit` holders at once; the rest wait in FIFO order until a slot frees or they abort. */
export interface Semaphore {
  acquire(signal: AbortSignal): Promise<() => void>;
  readonly inUse: number;
  readonly waiting: number;
}

export function createSemaphore(limit: number): Semaphore {
  let inUse = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else inUse--;
  };
  const once = () => {
    let done = false;
    return () => {
      if (!done) {
        done = true;
        release();
      }
    };
  };
  return {
    acquire(signal) {
      if (signal.aborted) return Promise.reject(abortReason(signal));
      if (inUse < limit) {
        inUse++;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          resolve(once()); // the slot passes straight from the releaser to this waiter
        };
        const onAbort = () => {
          const i = queue.indexOf(grant);
          if (i >= 0) queue.splice(i, 1);
          reject(abortReason(signal));
        };
        queue.push(grant);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    get inUse() {
      return inUse;
    },
    get waiting() {
      return queue.length;
    },
  };
}

/**
 * Token bucket: `ratePerSecond` sustained, `burst` at once. Callers reserve a token (the count may
 * go below zero) and sleep until it is theirs, so waiters are served in order without polling; a
 * caller that aborts while waiting hands its token back.
 */
export interface TokenBucket {
  take(signal: AbortSignal): Promise<void>;
}

export function createTokenBucket(ratePerSecond: number, burst: number, clock: Clock = systemClock): TokenBucket {
  let tokens = burst;
  let updatedAt = clock.now();
  const refill = () => {
    const now = clock.now();
    tokens = Math.min(burst, tokens + ((now - updatedAt) * ratePerSecond) / 1000);
    updatedAt = now;
  };
  return {
    async take(signal) {
      if (signal.aborted) throw abortReason(signal);
      refill();
      tokens -= 1;
      if (tokens >= 0) return;
      const waitMs = Math.ceil((-tokens * 1000) / ratePerSecond);
      try {
        await clock.sleep(waitMs, signal);
      } catch (error) {
        refill();
        tokens += 1;
        throw error;
      }
    },
  };
}

export interface HostLimitOptions {
  /** Requests in flight per host (0 or undefined: no cap). */
  readonly concurrency?: number;
  /** Requests started per second per host (0 or undefined: no cap). */
  readonly ratePerSecond?: number;
  /** Bucket size: requests that may start at once after a quiet spell (default: max(1, rate)). */
  readonly burst?: number;
  readonly clock?: Clock;
}

/**
 * Per-host concurrency and request-rate caps. A request waits for its turn; when the call's deadline
 * passes first it fails UPSTREAM_TIMEOUT with a `host cap:` cause (a timeout of ours: it never counts
 * against the host's circuit).
 */
export function withHostLimits(inner: PageFetcher, options: HostLimitOptions): PageFetcher {
  const semaphores = new Map<string, Semaphore>();
  const buckets = new Map<string, TokenBucket>();
  const clock = options.clock ?? systemClock;
  const semaphoreFor = (host: string) => {
    if (!options.concurrency) return undefined;
    let s = semaphores.get(host);
    if (!s) semaphores.set(host, (s = createSemaphore(options.concurrency)));
    return s;
  };
  const bucketFor = (host: string) => {
    if (!options.ratePerSecond) return undefined;
    let b = buckets.get(host);
    if (!b) buckets.set(host, (b = createTokenBucket(options.ratePerSecond, options.burst ?? Math.max(1, options.ratePerSecond), clock)));
    return b;
  };
  const capTimeout = (host: string, what: string, error: unknown) =>
    new CoreError(ErrorReason.UPSTREAM_TIMEOUT, undefined, { cause: new Error(`${HOST_CAP_CAUSE_PREFIX} ${what} for ${host} (${String(error)})`) });
  return {
    async fetchPage(request: PageRequest): Promise<FetchedPage> {
      const host = hostOf(request);
      let release: (() => void) | undefined;
      try {
        release = await semaphoreFor(host)?.acquire(request.signal);
        await bucketFor(host)?.take(request.signal);
      } catch (error) {
        release?.();
        throw capTimeout(host, release ? 'waited for the request-rate cap' : 'waited for the concurrency cap', error);
      }
      try {
        return await inner.fetchPage(request);
      } finally {
        release?.();
      }
    },
  };
}
