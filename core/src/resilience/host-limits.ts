import { ErrorReason } from '@retail/contract';
import pLimit, { type LimitFunction } from 'p-limit';
import { CoreError } from '../errors.js';
import type { FetchedPage, PageFetcher, PageRequest } from '../pages/types.js';
import { abortReason, systemClock, type Clock } from './clock.js';
import { HOST_CAP_CAUSE_PREFIX } from './outcome-class.js';
import { hostOf } from './types.js';

/**
 * Runs `work` when `limit` (p-limit, the project's one semaphore) has a free slot, in FIFO order, for
 * a caller that may give up while queued. p-limit has no per-entry cancellation (its clearQueue drops
 * every waiter), so a caller whose signal aborts in the queue is rejected at once and its entry, when
 * its turn comes, returns without running `work`: it costs a closure until then, never a held slot.
 */
export function runWhenFree<T>(limit: LimitFunction, work: () => Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    void limit(async () => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return; // gave up in the queue: already rejected
      await work().then(resolve, reject);
    });
  });
}

/**
 * Runs work under a host's slot limit with two priorities. Interactive requests queue in p-limit as
 * before (FIFO); background requests (a bulk job's items) wait in a lane of their own in front of it
 * and enter only when a slot is free and no interactive request is queued for one, so a waiting
 * interactive request never queues behind background work that has not started. Background requests
 * already running keep their slots (nothing is pre-empted). Our own code because p-limit has no
 * priorities; the slot accounting stays p-limit's (`activeCount`, `pendingCount`).
 */
export interface PriorityLimit {
  run<T>(work: () => Promise<T>, signal: AbortSignal, background: boolean): Promise<T>;
  /** Background requests waiting for their turn (for tests and metrics). */
  readonly backgroundWaiting: number;
}

export function createPriorityLimit(limit: LimitFunction): PriorityLimit {
  const lane: Array<() => void> = [];
  const freeSlots = () => limit.concurrency - limit.activeCount - limit.pendingCount;
  // After a slot is given back: p-limit has started its next queued (interactive) request by then.
  const admit = () => {
    for (let slots = freeSlots(); slots > 0 && lane.length > 0; slots--) lane.shift()!();
  };
  const released = <T>(work: () => Promise<T>) => async () => {
    try {
      return await work();
    } finally {
      setImmediate(admit);
    }
  };
  return {
    get backgroundWaiting() {
      return lane.length;
    },
    run(work, signal, background) {
      if (!background) return runWhenFree(limit, released(work), signal);
      if (signal.aborted) return Promise.reject(abortReason(signal));
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const at = lane.indexOf(enter);
          if (at >= 0) lane.splice(at, 1);
          reject(abortReason(signal));
        };
        function enter() {
          signal.removeEventListener('abort', onAbort);
          runWhenFree(limit, released(work), signal).then(resolve, reject);
        }
        if (lane.length === 0 && freeSlots() > 0) return enter();
        signal.addEventListener('abort', onAbort, { once: true });
        lane.push(enter);
      });
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
 * Per-host concurrency and request-rate caps. A request waits for its turn, background requests
 * after every waiting interactive one (createPriorityLimit); when the call's deadline passes first it
 * fails UPSTREAM_TIMEOUT with a `host cap:` cause (a timeout of ours: it never counts against the
 * host's circuit).
 */
export function withHostLimits(inner: PageFetcher, options: HostLimitOptions): PageFetcher {
  const limits = new Map<string, PriorityLimit>();
  const buckets = new Map<string, TokenBucket>();
  const clock = options.clock ?? systemClock;
  const limitFor = (host: string) => {
    if (!options.concurrency) return undefined;
    let l = limits.get(host);
    if (!l) limits.set(host, (l = createPriorityLimit(pLimit(options.concurrency))));
    return l;
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
      const limit = limitFor(host);
      let admitted = !limit;
      // The concurrency slot is held while waiting for the rate cap and during the fetch.
      const fetchWithinRate = async () => {
        admitted = true;
        try {
          await bucketFor(host)?.take(request.signal);
        } catch (error) {
          throw capTimeout(host, 'waited for the request-rate cap', error);
        }
        return inner.fetchPage(request);
      };
      try {
        return limit ? await limit.run(fetchWithinRate, request.signal, request.priority === 'background') : await fetchWithinRate();
      } catch (error) {
        throw admitted ? error : capTimeout(host, 'waited for the concurrency cap', error);
      }
    },
  };
}
