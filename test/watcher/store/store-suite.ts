/**
 * The behaviour every engine behind the watcher's `Database` seam must show (real PostgreSQL and
 * PGlite run this same suite). One database per engine; each test works under its own accounts and
 * products, so tests never see each other's rows.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition, Snapshot, WatchEvent } from '../../../watcher/src/model.js';
import {
  createWatchStore, InvalidCursorError, migrate, openWatchStore, type Database, type EventDraft, type WatchStore,
} from '../../../watcher/src/store/index.js';
import { ensurePartitionsFrom } from '../../../watcher/src/store/partitions.js';

export function fakeClock(start = '2026-03-01T12:00:00Z') {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms), set: (iso: string) => void (now = Date.parse(iso)) };
}

const HOUR = 3_600_000;
const account = () => `acct-${randomUUID()}`;
/** A product no other test uses. */
const asin = () => `B0${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}`;
const priceBelow: Condition = { type: 'PRICE_AT_OR_BELOW', value: 9.5 };

function snapshot(productAsin: string, at: Date, fields: Partial<Snapshot> = {}): Snapshot {
  return { domain: 'US', asin: productAsin, at, retrievedAt: new Date(at.getTime() - 60_000), ...fields };
}

/**
 * `hours` hourly snapshots of one product from `from`, generated in SQL (as the benchmark does): the
 * price walks with the hour so that each point is recognisable.
 */
async function seedHourly(db: Database, productAsin: string, from: Date, hours: number): Promise<void> {
  await ensurePartitionsFrom(db, from, Math.ceil(hours / 24 / 28) + 1);
  await db.query(`INSERT INTO products (domain, asin) VALUES ('US', $1) ON CONFLICT DO NOTHING`, [productAsin]);
  await db.query(
    `INSERT INTO snapshots (product_id, at, retrieved_at, price, price_currency, in_stock)
     SELECT p.id, $2::timestamptz + h * interval '1 hour', $2::timestamptz + h * interval '1 hour', 10 + h / 100.0, 'USD', h % 7 <> 0
     FROM products p, generate_series(0, $3::integer - 1) AS h WHERE p.domain = 'US' AND p.asin = $1`,
    [productAsin, from, hours],
  );
}

/** What downsampling must answer, computed here from every point: the last point of each bucket, or its last marked one. */
function expectedDownsample(points: readonly Snapshot[], maxPoints: number): Snapshot[] {
  if (points.length === 0) return [];
  const first = points[0]!.at.getTime();
  const width = Math.floor((points.at(-1)!.at.getTime() - first) / maxPoints) + 1;
  const lastOfBucket = new Map<number, Snapshot>();
  const lastMarked = new Map<number, Snapshot>();
  for (const point of points) {
    const bucket = Math.floor((point.at.getTime() - first) / width);
    lastOfBucket.set(bucket, point);
    if ((point.quality ?? 'ok') !== 'ok') lastMarked.set(bucket, point);
  }
  return [...lastOfBucket.entries()].map(([bucket, point]) => lastMarked.get(bucket) ?? point);
}

/** What the history summary must answer, computed here from every point (store/history-summary.ts's rules). */
/** The summary's figures computed in plain code: only values the history vouches for count (a field unknown or suspect in a snapshot is left out). */
function expectedSummary(points: readonly Snapshot[], end: Date) {
  const trusts = (p: Snapshot, field: 'price' | 'isInStock') => !p.unknownFields?.includes(field) && !p.suspectFields?.includes(field);
  const pricePoints = points.filter((p) => trusts(p, 'price'));
  const stockPoints = points.filter((p) => trusts(p, 'isInStock'));
  const priced = pricePoints.filter((p) => p.price);
  const values = priced.map((p) => p.price!.value);
  let changes = 0;
  let last: { at: Date; from: number; to: number } | undefined;
  for (let i = 1; i < priced.length; i++) {
    const [from, to] = [priced[i - 1]!.price!.value, priced[i]!.price!.value];
    if (from !== to) {
      changes++;
      last = { at: priced[i]!.at, from, to };
    }
  }
  const inStockMs = stockPoints.reduce((sum, p, i) => sum + (p.isInStock ? Math.max(0, (stockPoints[i + 1]?.at ?? end).getTime() - p.at.getTime()) : 0), 0);
  const days = (ms: number) => Math.round((ms / 86_400_000) * 100) / 100;
  const usd = (value: number) => ({ value, currency: 'USD' });
  return {
    snapshots: points.length,
    firstAt: points[0]!.at,
    lastAt: points.at(-1)!.at,
    currentPrice: pricePoints.at(-1)!.price,
    currentInStock: stockPoints.at(-1)!.isInStock,
    minPrice: usd(Math.min(...values)),
    maxPrice: usd(Math.max(...values)),
    averagePrice: usd(Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100),
    priceChanges: changes,
    ...(last ? { lastChangeAt: last.at, lastChangeFrom: usd(last.from), lastChangeTo: usd(last.to) } : {}),
    daysInStock: days(inStockMs),
    daysObserved: days(end.getTime() - points[0]!.at.getTime()),
  };
}

export function storeSuite(engine: string, openDatabase: () => Promise<Database>): void {
  describe(`watch store (${engine})`, () => {
    const clock = fakeClock();
    let db: Database;
    let store: WatchStore;

    beforeAll(async () => {
      db = await openDatabase();
      store = await openWatchStore(db, { clock: clock.now });
    });
    afterAll(async () => {
      await db?.close();
    });

    const createWatch = (accountId: string, productAsin = asin(), extra: Partial<Parameters<WatchStore['watches']['create']>[0]> = {}) =>
      store.watches.create({ accountId, domain: 'US', asin: productAsin, intervalSeconds: 3600, conditions: [priceBelow], ...extra });

    it('migrations are idempotent: a second run applies nothing', async () => {
      expect(await migrate(db)).toEqual([]);
      const tables = await db.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ('watches', 'snapshots', 'watch_events', 'webhook_deliveries', 'products') ORDER BY 1`,
      );
      expect(tables.map((t) => t.name)).toEqual(['products', 'snapshots', 'watch_events', 'watches', 'webhook_deliveries']);
    });

    describe('watches', () => {
      it('creates a watch due at once and reads it back as created', async () => {
        const owner = account();
        const created = await createWatch(owner, 'B000000001', { label: 'kettle', webhook: { url: 'https://example.com/hook', secretCiphertext: 'v1:abc' } });
        expect(created).toMatchObject({
          accountId: owner, domain: 'US', asin: 'B000000001', label: 'kettle', intervalSeconds: 3600, conditions: [priceBelow],
          webhookUrl: 'https://example.com/hook', status: 'ACTIVE', createdAt: clock.now(), nextRefreshAt: clock.now(),
        });
        expect(created).not.toHaveProperty('lastRefreshAt');
        expect(created).not.toHaveProperty('pausedReason');
        expect(await store.watches.get(owner, created.id)).toEqual(created);
        expect(await store.watches.webhookOf(created.id)).toEqual({ url: 'https://example.com/hook', secretCiphertext: 'v1:abc' });
      });

      it('takes the id the caller chose (a webhook secret is sealed bound to it) and refuses one that is not a UUID', async () => {
        const id = randomUUID();
        const owner = account();
        expect((await createWatch(owner, asin(), { id })).id).toBe(id);
        expect(await store.watches.get(owner, id)).toMatchObject({ id, accountId: owner });
        await expect(createWatch(owner, asin(), { id: 'watch-1' })).rejects.toThrow(RangeError);
      });

      it("another account's watch is simply not found: get, update, delete, list, pause", async () => {
        const owner = account();
        const stranger = account();
        const watch = await createWatch(owner);
        expect(await store.watches.get(stranger, watch.id)).toBeNull();
        expect(await store.watches.update(stranger, watch.id, { label: 'mine now' })).toBeNull();
        expect(await store.watches.delete(stranger, watch.id)).toBe(false);
        expect((await store.watches.list(stranger, { limit: 10 })).items).toEqual([]);
        expect(await store.watches.pause(stranger, 'USER', [watch.id])).toEqual([]);
        expect(await store.watches.get(owner, watch.id)).toEqual(watch);
        expect(await store.watches.get(owner, 'not-a-uuid')).toBeNull();
      });

      it('updates label, interval, conditions and webhook; absent fields stay', async () => {
        const owner = account();
        const watch = await createWatch(owner, asin(), { label: 'old', webhook: { url: 'https://a.example/h', secretCiphertext: 's1' } });
        clock.advance(1000);
        const updated = await store.watches.update(owner, watch.id, { intervalSeconds: 900, conditions: [{ type: 'BACK_IN_STOCK' }] });
        expect(updated).toMatchObject({ label: 'old', intervalSeconds: 900, conditions: [{ type: 'BACK_IN_STOCK' }], webhookUrl: 'https://a.example/h' });
        // Never refreshed: the new interval counts from now.
        expect(updated!.nextRefreshAt).toEqual(new Date(clock.now().getTime() + 900_000));
        const cleared = await store.watches.update(owner, watch.id, { label: null, webhook: null });
        expect(cleared).not.toHaveProperty('label');
        expect(cleared).not.toHaveProperty('webhookUrl');
        expect(await store.watches.webhookOf(watch.id)).toBeNull();
      });

      it('deletes a watch with its events; a second delete finds nothing', async () => {
        const owner = account();
        const watch = await createWatch(owner);
        await store.events.append([{ accountId: owner, watchId: watch.id, type: 'WATCH_PAUSED', dedupeKey: 'k', before: null, after: null, at: clock.now() }]);
        expect(await store.watches.delete(owner, watch.id)).toBe(true);
        expect(await store.watches.delete(owner, watch.id)).toBe(false);
        expect((await store.events.list(owner, { limit: 10 })).items).toEqual([]);
      });

      it('pauses for lack of units and resumes only those, due at once; a watch its owner paused stays paused', async () => {
        const owner = account();
        const [a, b, c] = [await createWatch(owner), await createWatch(owner), await createWatch(owner)];
        expect((await store.watches.pause(owner, 'USER', [c.id])).map((w) => w.id)).toEqual([c.id]);
        const paused = await store.watches.pause(owner, 'INSUFFICIENT_UNITS');
        expect(paused.map((w) => w.id).sort()).toEqual([a.id, b.id].sort());
        expect(paused.every((w) => w.status === 'PAUSED' && w.pausedReason === 'INSUFFICIENT_UNITS')).toBe(true);
        clock.advance(5000);
        const resumed = await store.watches.resume(owner, 'INSUFFICIENT_UNITS');
        expect(resumed.map((w) => w.id).sort()).toEqual([a.id, b.id].sort());
        expect(resumed.every((w) => w.status === 'ACTIVE' && w.pausedReason === undefined && w.nextRefreshAt.getTime() === clock.now().getTime())).toBe(true);
        expect(await store.watches.get(owner, c.id)).toMatchObject({ status: 'PAUSED', pausedReason: 'USER' });
      });

      it('the owner\'s pause takes over a pause for units, so units coming back do not resume it', async () => {
        const [owner, stranger] = [account(), account()];
        const watch = await createWatch(owner);
        await store.watches.pause(owner, 'INSUFFICIENT_UNITS', [watch.id]);
        expect(await store.watches.pauseByOwner(stranger, watch.id)).toBeNull();
        expect(await store.watches.pauseByOwner(owner, watch.id)).toMatchObject({ status: 'PAUSED', pausedReason: 'USER' });
        expect(await store.watches.resume(owner, 'INSUFFICIENT_UNITS')).toEqual([]);
        expect(await store.watches.pauseByOwner(owner, 'not-a-uuid')).toBeNull();
      });

      it('lists every watch exactly once, oldest first, while new ones are created between pages', async () => {
        const owner = account();
        const original: string[] = [];
        // Several watches share a creation time: the id breaks the tie.
        for (let i = 0; i < 23; i++) {
          if (i % 3 === 0) clock.advance(1);
          original.push((await createWatch(owner)).id);
        }
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await store.watches.list(owner, { limit: 5, ...(cursor && { cursor }) });
          seen.push(...page.items.map((w) => w.id));
          cursor = page.nextCursor ?? undefined;
          clock.advance(1);
          await createWatch(owner); // created after everything listed so far: appears at the end
        } while (cursor);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.slice(0, original.length).sort()).toEqual([...original].sort());
        const all = await store.watches.list(owner, { limit: 1000 });
        expect(seen).toEqual(all.items.slice(0, seen.length).map((w) => w.id));
        await expect(store.watches.list(owner, { limit: 5, cursor: 'garbage' })).rejects.toBeInstanceOf(InvalidCursorError);
      });

      it('lists newest first with its own cursor, each watch once, and counts the account\'s watches', async () => {
        const owner = account();
        const created: string[] = [];
        for (let i = 0; i < 7; i++) {
          if (i % 2 === 0) clock.advance(1); // pairs share a creation time: the id breaks the tie
          created.push((await createWatch(owner)).id);
        }
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await store.watches.list(owner, { limit: 3, newestFirst: true, ...(cursor && { cursor }) });
          seen.push(...page.items.map((w) => w.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        const oldestFirst = (await store.watches.list(owner, { limit: 100 })).items.map((w) => w.id);
        expect(seen).toEqual([...oldestFirst].reverse());
        expect(new Set(seen)).toEqual(new Set(created));
        expect(await store.watches.count(owner)).toBe(7);
        expect(await store.watches.count(account())).toBe(0);
      });

      it('answers the products due with the watches they serve, once per product across accounts', async () => {
        const shared = asin();
        const alone = asin();
        const [first, second] = [account(), account()];
        clock.advance(60_000);
        const w1 = await createWatch(first, shared);
        const w2 = await createWatch(second, shared, { intervalSeconds: 7200 });
        const w3 = await createWatch(first, alone);
        const due = (await store.watches.due(clock.now(), 1000)).filter((p) => p.asin === shared || p.asin === alone);
        expect(due.map((p) => p.asin).sort()).toEqual([shared, alone].sort());
        expect(due.find((p) => p.asin === shared)!.watches.map((w) => w.id).sort()).toEqual([w1.id, w2.id].sort());
        await store.watches.markRefreshed([w1.id, w2.id, w3.id], clock.now());
        expect((await store.watches.get(first, w1.id))!.nextRefreshAt).toEqual(new Date(clock.now().getTime() + HOUR));
        expect((await store.watches.get(second, w2.id))!.lastRefreshAt).toEqual(clock.now());
        const ours = async (at: Date) => (await store.watches.due(at, 1000)).flatMap((p) => p.watches.map((w) => w.id)).filter((id) => [w1.id, w2.id, w3.id].includes(id));
        expect(await ours(clock.now())).toEqual([]);
        expect((await ours(new Date(clock.now().getTime() + HOUR))).sort()).toEqual([w1.id, w3.id].sort());
        await store.watches.pause(first, 'USER', [w1.id]);
        expect((await ours(new Date(clock.now().getTime() + 2 * HOUR))).sort()).toEqual([w2.id, w3.id].sort());
      });
    });

    describe('snapshots', () => {
      it('records a snapshot, answers the previous one, and keeps every field as given', async () => {
        const product = asin();
        const t0 = new Date('2026-03-02T10:00:00Z');
        const full = snapshot(product, t0, {
          price: { value: 19.99, currency: 'USD' }, listPrice: { value: 24.5, currency: 'USD' }, isInStock: true, buyboxSellerId: 'A1SELLER',
          rating: 4.5, ratingsTotal: 1234, bestSellersRank: 42, bestSellersCategory: 'Kitchen', offerCount: 7,
        });
        const first = await store.snapshots.record(full);
        expect(first.previous).toBeNull();
        const second = await store.snapshots.record(snapshot(product, new Date(t0.getTime() + HOUR), { isInStock: false }));
        expect(second.previous).toEqual(full);
        expect(second.id).not.toBe(first.id);
        // A retried refresh storing the same moment again keeps the first row.
        const again = await store.snapshots.record(snapshot(product, new Date(t0.getTime() + HOUR), { isInStock: false }));
        expect(again).toEqual(second);
        const history = await store.snapshots.history({ domain: 'US', asin: product, from: t0, to: new Date(t0.getTime() + HOUR) });
        expect(history).toEqual([full, snapshot(product, new Date(t0.getTime() + HOUR), { isInStock: false })]);
        expect(history[1]).not.toHaveProperty('price');
      });

      it('keeps the quality marks and answers what the history vouches for: unknown and suspect fields at their last trusted values', async () => {
        const product = asin();
        const t0 = new Date('2026-03-05T10:00:00Z');
        const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);
        const listed = snapshot(product, at(0), { price: { value: 10, currency: 'USD' }, isInStock: true, rating: 4.4 });
        await store.snapshots.record(listed);
        await store.snapshots.record(snapshot(product, at(1), { isInStock: false, rating: 4.4 }));
        const drifted = snapshot(product, at(2), { rating: 4.5, unknownFields: ['price', 'isInStock'] });
        await store.snapshots.record(drifted);
        const spiked = snapshot(product, at(3), { price: { value: 1, currency: 'USD' }, rating: 4.5, unknownFields: ['isInStock'], suspectFields: ['price'] });
        await store.snapshots.record(spiked);
        const [stored] = await store.snapshots.history({ domain: 'US', asin: product, from: at(3), to: at(3) });
        expect(stored).toEqual({ ...spiked, quality: 'suspect' });
        // The price was a known absence (out of stock) at 1 h, the last value of isInStock trusted then.
        expect(await store.snapshots.trustedAt('US', product, at(3))).toEqual({ ...snapshot(product, at(3), { rating: 4.5 }), isInStock: false });
        expect(await store.snapshots.trustedAt('US', product, at(0))).toEqual(listed);
        expect(await store.snapshots.trustedAt('US', product, new Date(t0.getTime() - 1))).toBeNull();
        // A field with no trusted value anywhere before stays listed as unknown.
        const fresh = asin();
        await store.snapshots.record(snapshot(fresh, at(0), { rating: 4, unknownFields: ['price'] }));
        expect(await store.snapshots.trustedAt('US', fresh, at(0))).toEqual({ ...snapshot(fresh, at(0), { rating: 4 }), unknownFields: ['price'] });
      });

      it('creates the partition of a month that has none yet when a snapshot lands in it', async () => {
        const product = asin();
        const far = new Date('2031-07-15T00:00:00Z');
        expect((await store.snapshots.record(snapshot(product, far, { price: { value: 1, currency: 'EUR' } }))).previous).toBeNull();
        expect(await store.snapshots.history({ domain: 'US', asin: product, from: far, to: far })).toHaveLength(1);
      });

      it('downsamples a year of hourly points in SQL: at most maxPoints, oldest first, each the last of its bucket or its last suspect reading', async () => {
        const product = asin();
        const from = new Date('2024-01-01T00:00:00Z');
        await seedHourly(db, product, from, 366 * 24);
        // A suspect reading every 97 hours: the bucket it falls in answers with it, never hides it.
        await db.query(
          `UPDATE snapshots SET quality = 'suspect', suspect_fields = '{price}'
           WHERE product_id = (SELECT id FROM products WHERE domain = 'US' AND asin = $1) AND (extract(epoch FROM at - $2::timestamptz) / 3600)::integer % 97 = 3`,
          [product, from],
        );
        const to = new Date('2024-12-31T23:00:00Z');
        const all = await store.snapshots.history({ domain: 'US', asin: product, from, to });
        expect(all).toHaveLength(366 * 24);
        const sampled = await store.snapshots.history({ domain: 'US', asin: product, from, to, maxPoints: 500 });
        expect(sampled.length).toBeLessThanOrEqual(500);
        expect(sampled.length).toBeGreaterThan(450);
        expect(sampled).toEqual(expectedDownsample(all, 500));
        expect(sampled.filter((p) => p.quality === 'suspect')).toHaveLength(all.filter((p) => p.quality === 'suspect').length);
        expect(sampled.at(-1)).toEqual(all.at(-1));
        // A window inside the year: bounds are inclusive, and nothing outside them comes back.
        const windowFrom = new Date('2024-03-10T05:00:00Z');
        const windowTo = new Date('2024-03-20T05:00:00Z');
        const inWindow = all.filter((p) => p.at >= windowFrom && p.at <= windowTo);
        const windowed = await store.snapshots.history({ domain: 'US', asin: product, from: windowFrom, to: windowTo, maxPoints: 50 });
        expect(windowed).toEqual(expectedDownsample(inWindow, 50));
        expect(windowed.at(-1)!.at).toEqual(windowTo);
        expect(await store.snapshots.history({ domain: 'US', asin: product, from: windowFrom, to: windowTo, maxPoints: 1000 })).toEqual(inWindow);
        expect(await store.snapshots.history({ domain: 'US', asin: asin(), from, to, maxPoints: 500 })).toEqual([]);
        // The summary reads every point, not the downsampled ones: as computed here from all of them.
        const end = new Date('2025-01-01T00:00:00Z');
        const summary = await store.snapshots.summary({ domain: 'US', asin: product, from, to, end });
        const expected = expectedSummary(all, end);
        expect({ ...summary, averagePrice: undefined }).toEqual({ ...expected, averagePrice: undefined });
        expect(summary.averagePrice!.value).toBeCloseTo(expected.averagePrice.value, 2);
        const windowSummary = await store.snapshots.summary({ domain: 'US', asin: product, from: windowFrom, to: windowTo, end: windowTo });
        expect({ ...windowSummary, averagePrice: undefined }).toEqual({ ...expectedSummary(inWindow, windowTo), averagePrice: undefined });
        expect(await store.snapshots.summary({ domain: 'US', asin: asin(), from, to, end })).toEqual({ snapshots: 0, priceChanges: 0, daysInStock: 0, daysObserved: 0 });
      });

      it('retention drops only the months that ended before the window', async () => {
        const product = asin();
        await seedHourly(db, product, new Date('2020-01-01T00:00:00Z'), 366 * 24);
        const later = fakeClock('2021-01-20T00:00:00Z');
        const retention = createWatchStore(db, { clock: later.now, snapshotRetentionDays: 100 });
        // 100 days before 2021-01-20 is 2020-10-12: January to September end before it, October does not.
        const { dropped } = await retention.maintenance.run();
        const ours = dropped.filter((name) => name.startsWith('snapshots_2020_'));
        expect(ours).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09'].map((m) => `snapshots_2020_${m}`));
        const left = await store.snapshots.history({ domain: 'US', asin: product, from: new Date('2019-01-01Z'), to: new Date('2022-01-01Z') });
        expect(left[0]!.at).toEqual(new Date('2020-10-01T00:00:00Z'));
        expect(left).toHaveLength((31 + 30 + 31) * 24);
        expect((await retention.maintenance.run()).dropped).toEqual([]);
      });
    });

    describe('events', () => {
      const draft = (accountId: string, watchId: string, dedupeKey: string, type: EventDraft['type'] = 'PRICE_AT_OR_BELOW'): EventDraft => ({
        accountId, watchId, type, dedupeKey, before: { price: { value: 10, currency: 'USD' } }, after: { price: { value: 9, currency: 'USD' } }, at: clock.now(),
      });

      it('appends idempotently: a retried refresh writes no event twice', async () => {
        const owner = account();
        const watch = await createWatch(owner);
        const drafts = [draft(owner, watch.id, '101'), draft(owner, watch.id, '101', 'ANY_CHANGE')];
        const first = await store.events.append(drafts);
        expect(first.map((e) => e.type)).toEqual(['PRICE_AT_OR_BELOW', 'ANY_CHANGE']);
        expect(typeof first[0]!.id).toBe('string'); // bigint ids as text on both engines
        expect(BigInt(first[1]!.id)).toBeGreaterThan(BigInt(first[0]!.id));
        expect(await store.events.append(drafts)).toEqual([]);
        expect((await store.events.list(owner, { limit: 10 })).items).toEqual(first);
        expect(first[0]).toMatchObject({ watchId: watch.id, accountId: owner, before: drafts[0]!.before, after: drafts[0]!.after, at: clock.now() });
      });

      it("lists only the account's events, per watch when asked, and drops drafts naming another account's watch", async () => {
        const [owner, other] = [account(), account()];
        const [w1, w2] = [await createWatch(owner), await createWatch(owner)];
        const foreign = await createWatch(other);
        await store.events.append([draft(owner, w1.id, 'a'), draft(owner, w2.id, 'b'), draft(owner, foreign.id, 'c')]);
        expect((await store.events.list(owner, { limit: 10 })).items.map((e) => e.watchId)).toEqual([w1.id, w2.id]);
        expect((await store.events.list(owner, { limit: 10, watchId: w2.id })).items.map((e) => e.watchId)).toEqual([w2.id]);
        expect((await store.events.list(other, { limit: 10 })).items).toEqual([]);
        expect((await store.events.list(other, { limit: 10, watchId: w1.id })).items).toEqual([]);
      });

      it('pages through every event exactly once, in id order, while events keep coming', async () => {
        const owner = account();
        const watch = await createWatch(owner);
        let key = 0;
        const appendSome = (n: number) => store.events.append(Array.from({ length: n }, () => draft(owner, watch.id, String(key++))));
        await appendSome(17);
        const seen: WatchEvent[] = [];
        let cursor: string | undefined;
        for (let round = 0; round < 50; round++) {
          const page = await store.events.list(owner, { limit: 4, ...(cursor && { cursor }) });
          seen.push(...page.items);
          if (round < 5) await appendSome(2);
          // The stream's way: resume from the last id seen, also when this page was the last one.
          cursor = page.nextCursor ?? seen.at(-1)?.id;
          if (!page.nextCursor && round >= 5) break;
        }
        expect(seen.map((e) => e.id)).toEqual((await store.events.list(owner, { limit: 1000 })).items.map((e) => e.id));
        expect(seen).toHaveLength(27);
        await expect(store.events.list(owner, { limit: 4, cursor: '12abc' })).rejects.toBeInstanceOf(InvalidCursorError);
      });

      it('answers the newest event id of the account (of one watch when named), null when there is none', async () => {
        const owner = account();
        const [w1, w2] = [await createWatch(owner), await createWatch(owner)];
        expect(await store.events.latestId(owner)).toBeNull();
        const [e1] = await store.events.append([draft(owner, w1.id, 'l1')]);
        const [e2] = await store.events.append([draft(owner, w2.id, 'l2')]);
        expect(await store.events.latestId(owner)).toBe(e2!.id);
        expect(await store.events.latestId(owner, w1.id)).toBe(e1!.id);
        expect(await store.events.latestId(account())).toBeNull();
        expect(await store.events.latestId(owner, 'not-a-uuid')).toBeNull();
      });

      it('concurrent appends commit in id order, so a reader never skips one', async () => {
        const owner = account();
        const watch = await createWatch(owner);
        const batches = Array.from({ length: 12 }, (_, i) => store.events.append([draft(owner, watch.id, `c${i}`)]));
        const observed: string[] = [];
        let cursor: string | undefined;
        const reader = (async () => {
          for (let i = 0; i < 30; i++) {
            const page = await store.events.list(owner, { limit: 100, ...(cursor && { cursor }) });
            observed.push(...page.items.map((e) => e.id));
            cursor = observed.at(-1) ?? cursor;
          }
        })();
        await Promise.all([...batches, reader]);
        const rest = await store.events.list(owner, { limit: 100, ...(cursor && { cursor }) });
        observed.push(...rest.items.map((e) => e.id));
        expect(observed).toEqual((await store.events.list(owner, { limit: 100 })).items.map((e) => e.id));
      });
    });

    describe('webhook deliveries', () => {
      it('creates once per event, counts attempts, lists per watch newest first, reopens for redelivery', async () => {
        const [owner, stranger] = [account(), account()];
        const watch = await createWatch(owner, asin(), { webhook: { url: 'https://hooks.example/w', secretCiphertext: 'c' } });
        const events = await store.events.append(['1', '2'].map((k) => ({
          accountId: owner, watchId: watch.id, type: 'BACK_IN_STOCK' as const, dedupeKey: k, before: { isInStock: false }, after: { isInStock: true }, at: clock.now(),
        })));
        const target = { watchId: watch.id, accountId: owner, url: 'https://hooks.example/w' };
        const first = await store.deliveries.create({ ...target, eventId: events[0]!.id });
        expect(first).toMatchObject({ status: 'PENDING', attemptCount: 0, nextAttemptAt: clock.now(), createdAt: clock.now() });
        expect(await store.deliveries.create({ ...target, eventId: events[0]!.id })).toEqual(first);
        const second = await store.deliveries.create({ ...target, eventId: events[1]!.id });

        const retryAt = new Date(clock.now().getTime() + 30_000);
        expect(await store.deliveries.recordAttempt(first.id, { status: 'FAILED', responseStatus: 503, error: 'HTTP 503', nextAttemptAt: retryAt }))
          .toMatchObject({ status: 'FAILED', attemptCount: 1, lastResponseStatus: 503, lastError: 'HTTP 503', nextAttemptAt: retryAt });
        clock.advance(30_000);
        const delivered = await store.deliveries.recordAttempt(first.id, { status: 'DELIVERED', responseStatus: 204 });
        expect(delivered).toMatchObject({ status: 'DELIVERED', attemptCount: 2, lastResponseStatus: 204, deliveredAt: clock.now() });
        expect(delivered).not.toHaveProperty('lastError');
        expect(delivered).not.toHaveProperty('nextAttemptAt');
        // A stale job re-run after the delivery succeeded records nothing.
        expect(await store.deliveries.recordAttempt(first.id, { status: 'DEAD', error: 'late' })).toBeNull();
        expect((await store.deliveries.work(first.id))!.delivery).toEqual(delivered);
        expect(await store.deliveries.recordAttempt(second.id, { status: 'DEAD', error: 'connection refused' }))
          .toMatchObject({ status: 'DEAD', attemptCount: 1, lastError: 'connection refused' });

        const page1 = await store.deliveries.listForWatch(owner, watch.id, { limit: 1 });
        expect(page1.items.map((d) => d.id)).toEqual([second.id]);
        const page2 = await store.deliveries.listForWatch(owner, watch.id, { limit: 1, cursor: page1.nextCursor! });
        expect(page2).toEqual({ items: [delivered], nextCursor: null });
        expect((await store.deliveries.listForWatch(stranger, watch.id, { limit: 10 })).items).toEqual([]);

        expect(await store.deliveries.reopen(stranger, second.id)).toBeNull();
        // Named with another watch of the owner, the delivery is not found and stays as it was.
        const otherWatch = await createWatch(owner);
        expect(await store.deliveries.reopen(owner, second.id, otherWatch.id)).toBeNull();
        expect((await store.deliveries.work(second.id))!.delivery.status).toBe('DEAD');
        const reopened = await store.deliveries.reopen(owner, second.id, watch.id);
        expect(reopened!.delivery).toMatchObject({ status: 'PENDING', attemptCount: 1, nextAttemptAt: clock.now() });
        expect(reopened!.event).toEqual(events[1]);
        expect(await store.deliveries.work(second.id)).toEqual(reopened);
      });
    });
  });
}
