import { ErrorReason } from '@retail/contract';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageRequest } from '../operations/types.js';
import { createManualClock } from './clock.js';
import { createTokenBucket, runWhenFree, withHostLimits } from './host-limits.js';
import { outcomeClassOf } from './outcome-class.js';
import { page, request } from './test-helpers.js';

const tick = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('runWhenFree', () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };

  it('runs `limit` at once and passes slots on in FIFO order', async () => {
    const limit = pLimit(2);
    const signal = new AbortController().signal;
    const a = gate();
    const b = gate();
    const order: string[] = [];
    void runWhenFree(limit, () => a.opened, signal);
    void runWhenFree(limit, () => b.opened, signal);
    void runWhenFree(limit, async () => order.push('c'), signal);
    void runWhenFree(limit, async () => order.push('d'), signal);
    await tick();
    expect([limit.activeCount, limit.pendingCount]).toEqual([2, 2]);
    a.open();
    await tick(20);
    expect(order).toEqual(['c', 'd']);
    expect(limit.pendingCount).toBe(0);
  });

  it('a waiter that aborts is rejected at once and its turn is skipped', async () => {
    const limit = pLimit(1);
    const first = gate();
    void runWhenFree(limit, () => first.opened, new AbortController().signal);
    const c = new AbortController();
    let ran = false;
    const waiting = runWhenFree(limit, async () => (ran = true), c.signal);
    c.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    first.open();
    await tick(20);
    expect([ran, limit.activeCount, limit.pendingCount]).toEqual([false, 0, 0]);
  });
});

describe('createTokenBucket', () => {
  it('lets a burst through, then paces at the rate', async () => {
    const clock = createManualClock();
    const bucket = createTokenBucket(2, 2, clock);
    const signal = new AbortController().signal;
    await bucket.take(signal);
    await bucket.take(signal);
    let third = false;
    void bucket.take(signal).then(() => (third = true));
    await clock.advance(499);
    expect(third).toBe(false);
    await clock.advance(1);
    expect(third).toBe(true);
  });

  it('an aborted waiter gives its token back', async () => {
    const clock = createManualClock();
    const bucket = createTokenBucket(1, 1, clock);
    await bucket.take(new AbortController().signal);
    const c = new AbortController();
    const waiting = bucket.take(c.signal);
    c.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    await clock.advance(1_000);
    await bucket.take(new AbortController().signal); // the refilled token is still there
    expect(clock.pendingSleeps).toBe(0);
  });
});

describe('withHostLimits', () => {
  it('caps requests in flight per host', async () => {
    let inFlight = 0;
    let peak = 0;
    const gates: (() => void)[] = [];
    const inner = {
      fetchPage: async (_r: PageRequest): Promise<FetchedPage> => {
        peak = Math.max(peak, ++inFlight);
        await new Promise<void>((r) => gates.push(r));
        inFlight--;
        return page();
      },
    };
    const limited = withHostLimits(inner, { concurrency: 2 });
    let done = 0;
    const all = Array.from({ length: 5 }, () => limited.fetchPage(request()).then(() => done++));
    for (let round = 0; done < 5 && round < 50; round++) {
      await tick();
      gates.shift()?.();
    }
    await Promise.all(all);
    expect(peak).toBe(2);
  });

  it('a deadline that passes in the queue is a host-cap timeout (not a host failure)', async () => {
    const clock = createManualClock();
    const limited = withHostLimits({ fetchPage: async () => page() }, { ratePerSecond: 1, burst: 1, clock });
    await limited.fetchPage(request());
    const c = new AbortController();
    const queued = limited.fetchPage(request('/dp/Y', c.signal));
    c.abort();
    const error = await queued.catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: ErrorReason.UPSTREAM_TIMEOUT });
    expect(outcomeClassOf(error)).toBe('rate-capped');
  });
});
