/**
 * Watches and history do not lie (issue 23, section 4), on a real store (PGlite) and a real ledger:
 * a field the product's history expects but the page did not yield is stored unknown, an implausible
 * value is confirmed by a fresh read before it fires, an unconfirmed one is stored suspect, and no
 * condition fires from either. The page is scripted (fixtures.ts); the end-to-end test with a real
 * core and a drifted page is test/watcher/e2e/layout-drift.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeteringInstance } from '@retail/metering';
import type { Condition, TrackedField } from '../../../watcher/src/model.js';
import { PRICE_PLAUSIBLE_CHANGE } from '../../../watcher/src/quality/plausibility.js';
import { createRefreshProcessor, type SnapshotFields, type SnapshotRead, type SnapshotReader } from '../../../watcher/src/refresh/index.js';
import type { WatchStore } from '../../../watcher/src/store/index.js';
import { balanceOf, eventTypes, HOUR, newAsin, newWatch, openTestMetering, openTestStore, recordingQueue, runOf, scriptedReader, START } from './fixtures.js';

let store: WatchStore;
let metering: MeteringInstance;

beforeAll(async () => {
  ({ store } = await openTestStore());
  ({ metering } = await openTestMetering());
}, 60_000);

afterAll(async () => {
  await metering?.close();
  await store?.close();
});

const SELLER = 'ATVPDKIKX0DER';
const page = (fields: Omit<SnapshotFields, 'retrievedAt'>, incidentFields?: readonly TrackedField[]): SnapshotRead => ({
  kind: 'snapshot', snapshot: { retrievedAt: new Date(START), ...fields }, ...(incidentFields && { incidentFields }),
});
const listed = (price: number) => page({ price: { value: price, currency: 'USD' }, isInStock: true, buyboxSellerId: SELLER, rating: 4.4, ratingsTotal: 2048 });
/** The price block renamed: the page still lists the product (availability, seller, rating) but no price. */
const priceBlockGone = page({ isInStock: true, buyboxSellerId: SELLER, rating: 4.4, ratingsTotal: 2048 });
/** The price and availability blocks renamed, as a redesign does: neither price, stock nor seller. */
const buyBoxGone = page({ rating: 4.4, ratingsTotal: 2048 });

/** Every condition a customer can set that reads price or stock, and ANY_CHANGE. */
const PRICE_AND_STOCK: Condition[] = [
  { type: 'PRICE_AT_OR_BELOW', value: 9 },
  { type: 'PRICE_DROP_PERCENT', value: 10 },
  { type: 'OUT_OF_STOCK' },
  { type: 'BACK_IN_STOCK' },
  { type: 'BUYBOX_SELLER_CHANGED' },
  { type: 'ANY_CHANGE' },
];

/** Runs the script hourly for one new watch; the events each run appended, and the stored points. */
async function story(script: readonly SnapshotRead[], conditions: Condition[], reader: SnapshotReader & { freshReads?: () => number } = scriptedReader(script)) {
  const { accountId } = await metering.admin.createAccount({ units: 20 });
  const asin = newAsin();
  const watch = await newWatch(store, accountId, asin, { conditions });
  const refresh = createRefreshProcessor({ store, meter: metering.meter, reader, deliveries: recordingQueue() });
  const perRun: string[][] = [];
  for (let run = 0; run < script.length; run++) {
    const before = (await eventTypes(store, accountId, watch.id)).length;
    await refresh(runOf('US', asin, START + run * HOUR));
    perRun.push((await eventTypes(store, accountId, watch.id)).slice(before));
  }
  const points = await store.snapshots.history({ domain: 'US', asin, from: new Date(START), to: new Date(START + script.length * HOUR) });
  return { perRun, points, accountId, freshReads: reader.freshReads?.() ?? 0 };
}

describe('a field the page no longer shows', () => {
  it('fires no price, stock or ANY_CHANGE event while the price and availability blocks drift, nor when they return with the same values', async () => {
    const { perRun, points } = await story([listed(10), priceBlockGone, buyBoxGone, buyBoxGone, listed(10)], PRICE_AND_STOCK);
    expect(perRun).toEqual([[], [], [], [], []]);
    expect(points.map((p) => [p.quality ?? 'ok', p.unknownFields ?? []])).toEqual([
      ['ok', []],
      ['suspect', ['price']],
      ['suspect', ['price', 'isInStock', 'buyboxSellerId']],
      ['suspect', ['price', 'isInStock', 'buyboxSellerId']],
      ['ok', []],
    ]);
    // Unknown is stored as no value, never as null-turned-false: the drifted points show no stock at all.
    expect(points[2]).not.toHaveProperty('isInStock');
    expect(points[2]).not.toHaveProperty('price');
  });

  it('fires the change that happened during the drift once the page shows it again, against the last value it vouched for', async () => {
    const { perRun } = await story([listed(10), buyBoxGone, listed(8.5)], PRICE_AND_STOCK);
    expect(perRun).toEqual([[], [], ['PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT', 'ANY_CHANGE']]);
  });

  it('takes a price missing from an out-of-stock page as a fact, not an unknown: the point is ok and the stock events fire', async () => {
    const outOfStock = page({ isInStock: false, rating: 4.4, ratingsTotal: 2048 });
    const { perRun, points, freshReads } = await story([listed(10), outOfStock, listed(10)], [{ type: 'OUT_OF_STOCK' }, { type: 'BACK_IN_STOCK' }]);
    expect(perRun).toEqual([[], ['OUT_OF_STOCK'], ['BACK_IN_STOCK']]);
    expect(points.map((p) => p.quality ?? 'ok')).toEqual(['ok', 'ok', 'ok']);
    // Each flip was read twice (confirmed): the second read is the service's own, never charged.
    expect(freshReads).toBe(2);
  });

  it('stores the fields the core reports under a data incident as unknown, whatever the page showed, and fires nothing from them', async () => {
    const underIncident = page({ price: { value: 7, currency: 'USD' }, isInStock: false, buyboxSellerId: SELLER, rating: 4.4, ratingsTotal: 2048 }, ['price', 'isInStock']);
    const { perRun, points, freshReads } = await story([listed(10), underIncident, listed(10)], PRICE_AND_STOCK);
    expect(perRun).toEqual([[], [], []]);
    expect(points[1]).toMatchObject({ quality: 'suspect', unknownFields: ['price', 'isInStock'] });
    expect(points[1]).not.toHaveProperty('price');
    // A value under incident is not a value to confirm: no second read was spent on it.
    expect(freshReads).toBe(0);
  });
});

describe('a value beyond the plausibility bound', () => {
  it(`fires a confirmed price drop of more than ${PRICE_PLAUSIBLE_CHANGE * 100} % once, after one fresh read that is not charged`, async () => {
    const { perRun, points, freshReads, accountId } = await story([listed(100), listed(50), listed(50)], [
      { type: 'PRICE_DROP_PERCENT', value: 20 }, { type: 'PRICE_AT_OR_BELOW', value: 60 }, { type: 'ANY_CHANGE' },
    ]);
    expect(perRun).toEqual([[], ['PRICE_DROP_PERCENT', 'PRICE_AT_OR_BELOW', 'ANY_CHANGE'], []]);
    expect(freshReads).toBe(1);
    expect(points.map((p) => p.quality ?? 'ok')).toEqual(['ok', 'ok', 'ok']);
    expect(await balanceOf(metering, accountId)).toBe(20 - 3);
  });

  it('stores an unconfirmed price spike as suspect with the value read, fires nothing, and compares the next refresh with the last trusted price', async () => {
    const reader = scriptedReader([listed(10), listed(1), listed(10)], { fresh: (last, index) => (index === 1 ? listed(10) : last) });
    const { perRun, points, freshReads } = await story([listed(10), listed(1), listed(10)], [
      { type: 'PRICE_AT_OR_BELOW', value: 5 }, { type: 'PRICE_DROP_PERCENT', value: 10 }, { type: 'ANY_CHANGE' },
    ], reader);
    expect(perRun).toEqual([[], [], []]);
    expect(freshReads).toBe(1);
    expect(points[1]).toMatchObject({ quality: 'suspect', suspectFields: ['price'], price: { value: 1, currency: 'USD' } });
  });

  it('keeps a value whose confirmation read failed suspect, and fires it at the next refresh that confirms it: late, never lost', async () => {
    const reader = scriptedReader([listed(10), listed(5), listed(5)], {
      fresh: (last, index) => (index === 1 ? { kind: 'failed', retryable: true, reason: '503 blocked' } : last),
    });
    const { perRun, points } = await story([listed(10), listed(5), listed(5)], [{ type: 'PRICE_DROP_PERCENT', value: 30 }], reader);
    expect(perRun).toEqual([[], [], ['PRICE_DROP_PERCENT']]);
    expect(points.map((p) => p.suspectFields ?? [])).toEqual([[], ['price'], []]);
  });

  it('confirms the price that comes back with the stock: BACK_IN_STOCK fires, a price the fresh read does not show fires nothing', async () => {
    const outOfStock = page({ isInStock: false, rating: 4.4, ratingsTotal: 2048 });
    const reader = scriptedReader([listed(10), outOfStock, listed(2)], { fresh: (last, index) => (index === 2 ? listed(10) : last) });
    const { perRun, points } = await story([listed(10), outOfStock, listed(2)], [
      { type: 'PRICE_AT_OR_BELOW', value: 5 }, { type: 'OUT_OF_STOCK' }, { type: 'BACK_IN_STOCK' },
    ], reader);
    expect(perRun).toEqual([[], ['OUT_OF_STOCK'], ['BACK_IN_STOCK']]);
    expect(points[2]).toMatchObject({ quality: 'suspect', suspectFields: ['price'], isInStock: true });
  });

  it('fires no stock event from an availability flip a fresh read does not show, and takes the price it hid as unknown, not gone', async () => {
    const flipped = page({ isInStock: false, rating: 4.4, ratingsTotal: 2048 });
    const reader = scriptedReader([listed(10), flipped, listed(10)], { fresh: (last, index) => (index === 1 ? listed(10) : last) });
    // PRICE_AT_OR_BELOW 10 fires at once on a new watch; had the price been "gone" in between, it would fire again at the end.
    const { perRun, points } = await story([listed(10), flipped, listed(10)], [
      { type: 'PRICE_AT_OR_BELOW', value: 10 }, { type: 'OUT_OF_STOCK' }, { type: 'BACK_IN_STOCK' }, { type: 'ANY_CHANGE' },
    ], reader);
    expect(perRun).toEqual([['PRICE_AT_OR_BELOW'], [], []]);
    expect(points[1]).toMatchObject({ quality: 'suspect', suspectFields: ['isInStock'], unknownFields: ['price', 'buyboxSellerId'], isInStock: false });
  });
});
