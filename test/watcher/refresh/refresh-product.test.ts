/**
 * The refresh run processor on a real store (PGlite), a real ledger (memory) and a scripted page:
 * which events a run appends, who pays, who is paused, and what a run repeated after a crash does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeteringInstance } from '@retail/metering';
import type { Condition } from '../../../watcher/src/model.js';
import { createMemoryJobSystem } from '../../../watcher/src/queue/index.js';
import { createRefreshProcessor, REFRESH_QUEUE, resumePaused, type RefreshDependencies } from '../../../watcher/src/refresh/index.js';
import type { WatchStore } from '../../../watcher/src/store/index.js';
import { balanceOf, eventTypes, HOUR, newAsin, newWatch, openTestMetering, openTestStore, PRICE_STORY, recordingQueue, runOf, scriptedReader, START } from './fixtures.js';

const STORY_CONDITIONS: Condition[] = [
  { type: 'PRICE_AT_OR_BELOW', value: 9 },
  { type: 'PRICE_DROP_PERCENT', value: 10 },
  { type: 'OUT_OF_STOCK' },
  { type: 'BACK_IN_STOCK' },
];

let store: WatchStore;
let metering: MeteringInstance;
let ledgerClock: { advance: (ms: number) => void };

beforeAll(async () => {
  ({ store } = await openTestStore());
  ({ metering, clock: ledgerClock } = await openTestMetering());
}, 60_000);

afterAll(async () => {
  await metering?.close();
  await store?.close();
});

function processor(reader = scriptedReader(PRICE_STORY), overrides: Partial<RefreshDependencies> = {}) {
  const deliveries = recordingQueue();
  const refresh = createRefreshProcessor({ store, meter: metering.meter, reader, deliveries, ...overrides });
  return { refresh, reader, deliveries };
}

describe('refreshProduct', () => {
  it('appends exactly the events the conditions describe as the price goes 10 → 8 → out of stock → back, one unit per run', async () => {
    const { accountId } = await metering.admin.createAccount({ units: 10 });
    const asin = newAsin();
    const watch = await newWatch(store, accountId, asin, { conditions: STORY_CONDITIONS });
    const { refresh } = processor();
    const perRun: string[][] = [];
    for (let run = 0; run < 4; run++) {
      const before = (await store.events.list(accountId, { limit: 100 })).items.length;
      await refresh(runOf('US', asin, START + run * HOUR));
      perRun.push((await eventTypes(store, accountId, watch.id)).slice(before));
    }
    expect(perRun).toEqual([
      [],
      ['PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT'],
      ['OUT_OF_STOCK'],
      // The out-of-stock page showed no price, so 8 is "newly at or below 9" again (evaluate.ts);
      // events come in the order of the watch's conditions.
      ['PRICE_AT_OR_BELOW', 'BACK_IN_STOCK'],
    ]);
    expect(await balanceOf(metering, accountId)).toBe(6);
    const refreshed = await store.watches.get(accountId, watch.id);
    expect(refreshed?.lastRefreshAt?.getTime()).toBe(START + 3 * HOUR);
    expect(refreshed?.nextRefreshAt.getTime()).toBe(START + 4 * HOUR);
    expect((await store.snapshots.history({ domain: 'US', asin, from: new Date(START), to: new Date(START + 3 * HOUR) })).map((s) => s.price?.value))
      .toEqual([10, 8, undefined, 8]);
  });

  it('reads the page once for two accounts watching one product and charges each one unit', async () => {
    const first = await metering.admin.createAccount({ units: 5 });
    const second = await metering.admin.createAccount({ units: 5 });
    const asin = newAsin();
    await newWatch(store, first.accountId, asin, { conditions: STORY_CONDITIONS });
    await newWatch(store, second.accountId, asin, { conditions: [{ type: 'PRICE_DROP_PERCENT', value: 5 }] });
    const { refresh, reader } = processor();
    await refresh(runOf('US', asin, START));
    await refresh(runOf('US', asin, START + HOUR));
    expect(reader.reads()).toBe(2);
    expect(await balanceOf(metering, first.accountId)).toBe(3);
    expect(await balanceOf(metering, second.accountId)).toBe(3);
    expect(await eventTypes(store, first.accountId)).toEqual(['PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT']);
    expect(await eventTypes(store, second.accountId)).toEqual(['PRICE_DROP_PERCENT']);
  });

  it('pauses the watch of an account out of units with a WATCH_PAUSED event, serves the others, and resumes it when units return', async () => {
    const broke = await metering.admin.createAccount({ units: 0 });
    const paying = await metering.admin.createAccount({ units: 5 });
    const asin = newAsin();
    const unpaid = await newWatch(store, broke.accountId, asin);
    const paid = await newWatch(store, paying.accountId, asin);
    const { refresh, reader } = processor();
    await refresh(runOf('US', asin, START));
    expect(reader.reads()).toBe(1);
    expect(await store.watches.get(broke.accountId, unpaid.id)).toMatchObject({ status: 'PAUSED', pausedReason: 'INSUFFICIENT_UNITS' });
    expect(await eventTypes(store, broke.accountId)).toEqual(['WATCH_PAUSED']);
    expect((await store.watches.get(paying.accountId, paid.id))?.lastRefreshAt?.getTime()).toBe(START);
    expect(await balanceOf(metering, paying.accountId)).toBe(4);
    expect(await balanceOf(metering, broke.accountId)).toBe(0);

    const jobs = createMemoryJobSystem();
    try {
      const refreshes = jobs.queue(REFRESH_QUEUE);
      await metering.admin.grantUnits(broke.accountId, 3);
      const resumed = await resumePaused(store, refreshes, broke.accountId);
      expect(resumed.map((watch) => watch.id)).toEqual([unpaid.id]);
      expect(await store.watches.get(broke.accountId, unpaid.id)).toMatchObject({ status: 'ACTIVE' });
      expect(await eventTypes(store, broke.accountId)).toEqual(['WATCH_PAUSED', 'WATCH_RESUMED']);
      expect(await refreshes.getSchedule(`US:${asin}`)).toMatchObject({ everyMs: HOUR });
      // Resuming again (a repeated call) finds nothing paused and appends nothing.
      expect(await resumePaused(store, refreshes, broke.accountId)).toEqual([]);
      expect(await eventTypes(store, broke.accountId)).toEqual(['WATCH_PAUSED', 'WATCH_RESUMED']);
      // Resumed watches are due at once: the next run serves and charges them.
      await refresh(runOf('US', asin, START + 10 * 60_000));
      expect(await balanceOf(metering, broke.accountId)).toBe(2);
    } finally {
      await jobs.close();
    }
  });

  it('reads nothing and charges nothing when no watch of the product can pay', async () => {
    const broke = await metering.admin.createAccount({ units: 0 });
    const asin = newAsin();
    await newWatch(store, broke.accountId, asin);
    const { refresh, reader } = processor();
    await refresh(runOf('US', asin, START));
    expect(reader.reads()).toBe(0);
    expect(await eventTypes(store, broke.accountId)).toEqual(['WATCH_PAUSED']);
  });

  it('pauses the watches of a product the marketplace no longer has, with PRODUCT_NOT_FOUND and no charge', async () => {
    const { accountId } = await metering.admin.createAccount({ units: 5 });
    const asin = newAsin();
    const watch = await newWatch(store, accountId, asin);
    const { refresh } = processor(scriptedReader([{ kind: 'not-found' }]));
    await refresh(runOf('US', asin, START));
    expect(await store.watches.get(accountId, watch.id)).toMatchObject({ status: 'PAUSED', pausedReason: 'NOT_FOUND' });
    expect(await eventTypes(store, accountId)).toEqual(['PRODUCT_NOT_FOUND']);
    expect(await balanceOf(metering, accountId)).toBe(5);
  });

  it('lets only one of two overlapping runs of a product serve its watches: one read, one unit, the other retried', async () => {
    const { accountId } = await metering.admin.createAccount({ units: 5 });
    const asin = newAsin();
    await newWatch(store, accountId, asin);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    const slowReader = { async read() { reads += 1; await gate; return PRICE_STORY[0]!; } };
    const { refresh } = processor(scriptedReader(PRICE_STORY), { reader: slowReader });
    // A new watch's one-off first refresh and the product's scheduled run, a second apart.
    const first = refresh(runOf('US', asin, START));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(refresh(runOf('US', asin, START + 1000))).rejects.toThrow(/another run of the product is in progress/);
    release();
    await first;
    // The retry of the second run finds the watch refreshed and no longer due.
    await refresh(runOf('US', asin, START + 1000, 2));
    expect(reads).toBe(1);
    expect(await balanceOf(metering, accountId)).toBe(4);
  });

  it('serves a watch with a longer interval only on the runs where it is due', async () => {
    const { accountId } = await metering.admin.createAccount({ units: 10 });
    const asin = newAsin();
    const hourly = await newWatch(store, accountId, asin, { intervalSeconds: 3600 });
    const twoHourly = await newWatch(store, accountId, asin, { intervalSeconds: 7200 });
    const { refresh } = processor();
    for (let run = 0; run < 3; run++) await refresh(runOf('US', asin, START + run * HOUR));
    expect((await store.watches.get(accountId, hourly.id))?.lastRefreshAt?.getTime()).toBe(START + 2 * HOUR);
    expect((await store.watches.get(accountId, twoHourly.id))?.lastRefreshAt?.getTime()).toBe(START + 2 * HOUR);
    // 3 runs for the hourly watch, 2 (at 0 h and 2 h) for the two-hourly one.
    expect(await balanceOf(metering, accountId)).toBe(5);
  });
});

describe('a run repeated after a crash', () => {
  /** Makes `method` of `target` do its work, then throw once, as a process killed right after it would. */
  function crashOnceAfter<T extends object>(target: T, method: keyof T): T {
    let crashed = false;
    return new Proxy(target, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver) as unknown;
        if (key !== method || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
          if (!crashed) {
            crashed = true;
            throw new Error(`crash after ${String(method)}`);
          }
          return result;
        };
      },
    });
  }

  // [where the crash happens, the store that crashes there, units the two runs cost in all]. A crash
  // between marking the watch refreshed and settling leaves that refresh unpaid: the marked watch is
  // not due for the re-run, and its hold returns at expiry (refresh-product.ts says why that side).
  const crashPoints = [
    ['the snapshot insert', (s: WatchStore) => ({ ...s, snapshots: crashOnceAfter(s.snapshots, 'record') }), 2],
    ['the event append', (s: WatchStore) => ({ ...s, events: crashOnceAfter(s.events, 'append') }), 2],
    ['marking the watches refreshed', (s: WatchStore) => ({ ...s, watches: crashOnceAfter(s.watches, 'markRefreshed') }), 1],
  ] as const;

  for (const [point, crashingStore, units] of crashPoints) {
    it(`after ${point}: the same snapshot and events, one read, never a second charge (${units} units for two runs)`, async () => {
      const { accountId } = await metering.admin.createAccount({ units: 10 });
      const asin = newAsin();
      await newWatch(store, accountId, asin, { conditions: STORY_CONDITIONS });
      const { refresh: first } = processor(scriptedReader([PRICE_STORY[0]!]));
      await first(runOf('US', asin, START));
      const reader = scriptedReader([PRICE_STORY[1]!]);
      const deliveries = recordingQueue();
      const run = runOf('US', asin, START + HOUR);
      const crashing = createRefreshProcessor({ store: crashingStore(store), meter: metering.meter, reader, deliveries });
      await expect(crashing(run)).rejects.toThrow(/crash after/);
      // The queue re-runs a stalled job after its lock expires; by then the ledger may have
      // released the hold and forgotten its settle answer.
      ledgerClock.advance(10 * 60_000);
      await createRefreshProcessor({ store, meter: metering.meter, reader, deliveries })(run);
      await createRefreshProcessor({ store, meter: metering.meter, reader, deliveries })(run);
      expect(await eventTypes(store, accountId)).toEqual(['PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT']);
      expect(reader.reads()).toBe(1);
      expect(await store.snapshots.history({ domain: 'US', asin, from: new Date(START), to: new Date(START + HOUR) })).toHaveLength(2);
      expect(await balanceOf(metering, accountId)).toBe(10 - units);
    });
  }

  it('after the settles: nothing is charged twice, even once the ledger forgot its settle answers', async () => {
    const { accountId } = await metering.admin.createAccount({ units: 10 });
    const asin = newAsin();
    await newWatch(store, accountId, asin, { conditions: STORY_CONDITIONS });
    const reader = scriptedReader(PRICE_STORY);
    const run = runOf('US', asin, START);
    const meter = crashOnceAfter(metering.meter, 'settle');
    await expect(createRefreshProcessor({ store, meter, reader, deliveries: recordingQueue() })(run)).rejects.toThrow(/crash after settle/);
    ledgerClock.advance(10 * 60_000);
    await createRefreshProcessor({ store, meter: metering.meter, reader, deliveries: recordingQueue() })(run);
    expect(await balanceOf(metering, accountId)).toBe(9);
    expect(reader.reads()).toBe(1);
  });
});
