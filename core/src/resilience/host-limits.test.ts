import { ErrorReason } from '@retail/contract';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageRequest } from '../pages/types.js';
import { createManualClock } from './clock.js';
import { createPriorityLimit, createTokenBucket, runWhenFree, withHostLimits } from './host-limits.js';
import { outcomeClassOf } from './outcome-class.js';
import { page, request } from '../../test/page-doubles.js';

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

describe('createPriorityLimit', () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('gives a freed slot to every waiting interactive request before any waiting background one', async () => {
    const limit = createPriorityLimit(pLimit(2));
    const signal = new AbortController().signal;
    const order: string[] = [];
    const held = [gate(), gate()];
    // Two background requests take both slots; then background and interactive requests queue, interleaved.
    held.forEach((g, i) => void limit.run(async () => { order.push(`running-bg${i}`); await g.opened; }, signal, true));
    for (const [name, background] of [['bg-a', true], ['ui-1', false], ['bg-b', true], ['ui-2', false]] as const) {
      void limit.run(async () => void order.push(name), signal, background);
    }
    await settle();
    expect(limit.backgroundWaiting).toBe(2);
    held[0]!.open();
    await settle();
    await settle();
    held[1]!.open();
    for (let i = 0; i < 5; i++) await settle();
    expect(order).toEqual(['running-bg0', 'running-bg1', 'ui-1', 'ui-2', 'bg-a', 'bg-b']);
    expect(limit.backgroundWaiting).toBe(0);
  });

  it('runs a background request at once when a slot is free and nobody waits', async () => {
    const limit = createPriorityLimit(pLimit(1));
    let ran = false;
    await limit.run(async () => void (ran = true), new AbortController().signal, true);
    expect(ran).toBe(true);
  });

  it('a background request that gives up while waiting leaves the lane and is rejected', async () => {
    const limit = createPriorityLimit(pLimit(1));
    const first = gate();
    void limit.run(() => first.opened, new AbortController().signal, false);
    const c = new AbortController();
    let ran = false;
    const waiting = limit.run(async () => void (ran = true), c.signal, true);
    c.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(limit.backgroundWaiting).toBe(0);
    first.open();
    await settle();
    expect(ran).toBe(false);
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
