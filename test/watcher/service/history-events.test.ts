/**
 * The WatchService's read side over real gRPC: product history from stored snapshots (order, bounds,
 * downsampling, the default window), the events list and the event stream (resumed from a cursor,
 * new events in order, cancel), webhook deliveries and a redelivery that reopens a dead one and
 * queues its job. On real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@connectrpc/connect';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Domain, ErrorReason, HistoryPointQuality, type StreamWatchEventsResponse, WatchEventType, WebhookDeliveryStatus } from '@retail/contract';
import type { DeliveryRecord, EventDraft } from '../../../watcher/src/store/index.js';
import { as, eventually, failureOf, newAccount, newAsin, START, startTestService, type TestService } from './fixtures.js';

let t: TestService;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  // Real PostgreSQL here (a pool of connections: the stream polls beside the appends), PGlite elsewhere.
  t = await startTestService({ engine: 'postgres' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function seedHourly(asin: string, from: number, hours: number): Promise<void> {
  for (let h = 0; h < hours; h++) {
    const at = new Date(from + h * HOUR);
    await t.store.snapshots.record({ domain: 'US', asin, at, retrievedAt: at, price: { value: 10 + h, currency: 'USD' }, isInStock: h % 2 === 0, ratingsTotal: 100 + h });
  }
}

describe('GetProductHistory', () => {
  it('answers the snapshots in [from, to] oldest first, each field as stored', async () => {
    const asin = newAsin();
    await seedHourly(asin, START, 10);
    const history = (await t.client.getProductHistory({
      asin: asin.toLowerCase(), from: new Date(START + 2 * HOUR).toISOString(), to: new Date(START + 5 * HOUR).toISOString(),
    }, as(newAccount()))).retailProductHistory!;
    expect(history).toMatchObject({ asin, domain: Domain.US });
    expect(history.points.map((p) => timestampDate(p.at!).getTime())).toEqual([2, 3, 4, 5].map((h) => START + h * HOUR));
    expect(history.points.map((p) => [p.price?.value, p.price?.currency, p.isInStock, p.ratingsTotal])).toEqual([
      [12, 'USD', true, 102n], [13, 'USD', false, 103n], [14, 'USD', true, 104n], [15, 'USD', false, 105n],
    ]);
  });

  it('marks each point: OK, or SUSPECT with the fields unknown and unconfirmed named as on the wire', async () => {
    const asin = newAsin();
    const at = (h: number) => new Date(START + h * HOUR);
    await t.store.snapshots.record({ domain: 'US', asin, at: at(0), retrievedAt: at(0), price: { value: 10, currency: 'USD' }, isInStock: true });
    await t.store.snapshots.record({ domain: 'US', asin, at: at(1), retrievedAt: at(1), unknownFields: ['price', 'isInStock'] });
    await t.store.snapshots.record({ domain: 'US', asin, at: at(2), retrievedAt: at(2), price: { value: 1, currency: 'USD' }, isInStock: true, suspectFields: ['price'] });
    const points = (await t.client.getProductHistory({ asin, from: at(0).toISOString(), to: at(2).toISOString() }, as(newAccount()))).retailProductHistory!.points;
    expect(points.map((p) => [p.quality, p.unknownFields, p.suspectFields, p.price?.value])).toEqual([
      [HistoryPointQuality.OK, [], [], 10],
      [HistoryPointQuality.SUSPECT, ['price', 'isInStock'], [], undefined],
      [HistoryPointQuality.SUSPECT, [], ['price'], 1],
    ]);
  });

  it('summarizes the period over every snapshot, not only the points: current, min, max, average, changes, last change, days in stock', async () => {
    const asin = newAsin();
    // Hourly: 10, 7 (out of stock), 10, 12, 12, 12; the minimum falls between the two downsampled points.
    const prices = [10, 7, 10, 12, 12, 12];
    for (const [h, value] of prices.entries()) {
      const at = new Date(START + h * HOUR);
      await t.store.snapshots.record({ domain: 'US', asin, at, retrievedAt: at, price: { value, currency: 'USD' }, isInStock: h !== 1 });
    }
    t.clock.set(START + 8 * HOUR);
    const history = (await t.client.getProductHistory({
      asin, from: new Date(START).toISOString(), to: new Date(START + 30 * DAY).toISOString(), maxPoints: 2,
    }, as(newAccount()))).retailProductHistory!;
    expect(history.points.map((p) => p.price?.value)).not.toContain(7);
    const summary = history.summary!;
    expect(summary).toMatchObject({
      snapshots: 6n, currentPrice: { value: 12, currency: 'USD' }, currentInStock: true,
      minPrice: { value: 7 }, maxPrice: { value: 12 }, averagePrice: { value: 10.5 },
      priceChanges: 3n, lastChangeFrom: { value: 10 }, lastChangeTo: { value: 12 },
    });
    expect(timestampDate(summary.lastChangeAt!).getTime()).toBe(START + 3 * HOUR);
    expect(timestampDate(summary.firstAt!).getTime()).toBe(START);
    expect(timestampDate(summary.lastAt!).getTime()).toBe(START + 5 * HOUR);
    // In stock for 7 of the 8 hours up to now (the last state lasts until now, not the period's end).
    expect(summary.daysInStock).toBeCloseTo(7 / 24, 2);
    expect(summary.daysObserved).toBeCloseTo(8 / 24, 2);
    const empty = (await t.client.getProductHistory({ asin: newAsin() }, as(newAccount()))).retailProductHistory!.summary!;
    expect(empty).toMatchObject({ snapshots: 0n, priceChanges: 0n, daysInStock: 0, daysObserved: 0 });
    expect(empty.currentPrice).toBeUndefined();
  });

  it('leaves unknown and suspect values out of the summary: an unconfirmed spike is no maximum, a drifted page ends no stock span', async () => {
    const asin = newAsin();
    const at = (h: number) => new Date(START + h * HOUR);
    const record = (h: number, fields: Record<string, unknown>) =>
      t.store.snapshots.record({ domain: 'US', asin, at: at(h), retrievedAt: at(h), ...fields });
    await record(0, { price: { value: 10, currency: 'USD' }, isInStock: true });
    await record(1, { price: { value: 99, currency: 'USD' }, isInStock: true, suspectFields: ['price'] });
    await record(2, { unknownFields: ['price', 'isInStock'] });
    await record(3, { price: { value: 10, currency: 'USD' }, isInStock: true });
    await record(4, { unknownFields: ['price', 'isInStock'] });
    t.clock.set(START + 6 * HOUR);
    const summary = (await t.client.getProductHistory({
      asin, from: at(0).toISOString(), to: new Date(START + DAY).toISOString(),
    }, as(newAccount()))).retailProductHistory!.summary!;
    expect(summary).toMatchObject({
      snapshots: 5n, currentPrice: { value: 10 }, currentInStock: true,
      minPrice: { value: 10 }, maxPrice: { value: 10 }, averagePrice: { value: 10 }, priceChanges: 0n,
    });
    expect(summary.lastChangeAt).toBeUndefined();
    // In stock from hour 0 until now (hour 6): the unknown readings at hours 2 and 4 end nothing.
    expect(summary.daysInStock).toBeCloseTo(6 / 24, 2);
  });

  it('downsamples to at most max_points, each the last point of its bucket', async () => {
    const asin = newAsin();
    await seedHourly(asin, START, 48);
    const points = (await t.client.getProductHistory({ asin, from: '2026-03-01', to: '2026-03-03', maxPoints: 4 }, as(newAccount()))).retailProductHistory!.points;
    expect(points).toHaveLength(4);
    // 48 points over 47 hours in 4 buckets of floor(47 h / 4) + 1 ms: the last point of each.
    expect(points.map((p) => (timestampDate(p.at!).getTime() - START) / HOUR)).toEqual([11, 23, 35, 47]);
  });

  it('reads the last 30 days up to now by default, and nothing of other products', async () => {
    const asin = newAsin();
    await seedHourly(asin, START, 3);
    t.clock.set(START + 31 * DAY);
    expect((await t.client.getProductHistory({ asin }, as(newAccount()))).retailProductHistory!.points).toEqual([]);
    t.clock.set(START + 29 * DAY);
    expect((await t.client.getProductHistory({ asin }, as(newAccount()))).retailProductHistory!.points).toHaveLength(3);
    expect((await t.client.getProductHistory({ asin: newAsin() }, as(newAccount()))).retailProductHistory!.points).toEqual([]);
  });

  it.each([
    ['from later than to', { from: '2026-03-02', to: '2026-03-01' }, ['from']],
    ['an impossible date', { from: '2026-02-30' }, ['from']],
    ['a time without its zone', { to: '2026-03-01T10:00:00' }, ['to']],
    ['max_points of 1', { maxPoints: 1 }, ['max_points']],
  ])('refuses %s with INVALID_ARGUMENT', async (_name, fields, fieldPath) => {
    const failure = await failureOf(t.client.getProductHistory({ asin: newAsin(), ...fields }, as(newAccount())));
    expect(failure.code).toBe(Code.InvalidArgument);
    expect(failure.detail).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath });
  });
});

/** Appends events to a watch through the store, as the refresh pipeline does. */
async function appendEvents(accountId: string, watchId: string, count: number, tag: string) {
  const drafts: EventDraft[] = Array.from({ length: count }, (_, i) => ({
    accountId, watchId, type: 'PRICE_DROP_PERCENT', dedupeKey: `${tag}:${i}`, at: new Date(START + i * HOUR),
    before: { price: { value: 20 - i, currency: 'USD' } }, after: { price: { value: 10 - i / 10, currency: 'USD' } },
  }));
  return t.store.events.append(drafts);
}

async function watchOf(account: string): Promise<string> {
  return (await t.client.createWatch({ asin: newAsin() }, as(account))).retailWatch!.id;
}

describe('ListWatchEvents', () => {
  it('pages through the account\'s events in id order, each once, then answers no cursor', async () => {
    const account = newAccount();
    const first = await watchOf(account);
    const second = await watchOf(account);
    const appended = [...await appendEvents(account, first, 3, 'a'), ...await appendEvents(account, second, 2, 'b')];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await t.client.listWatchEvents({ limit: 2, ...(cursor && { cursor }) }, as(account))).retailWatchEvents!;
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(appended.map((e) => e.id));
    const [event] = (await t.client.listWatchEvents({ watchId: second, limit: 1 }, as(account))).retailWatchEvents!.events;
    expect(event).toMatchObject({ id: appended[3]!.id, watchId: second, type: WatchEventType.PRICE_DROP_PERCENT });
    expect(event!.before!.price).toMatchObject({ value: 20, currency: 'USD' });
    expect(event!.after!.price).toMatchObject({ value: 10, currency: 'USD' });
    expect((await t.client.listWatchEvents({}, as(newAccount()))).retailWatchEvents!.events).toEqual([]);
  });
});

describe('StreamWatchEvents', () => {
  async function take(stream: AsyncIterable<StreamWatchEventsResponse>, count: number): Promise<StreamWatchEventsResponse[]> {
    const got: StreamWatchEventsResponse[] = [];
    for await (const message of stream) {
      got.push(message);
      if (got.length === count) break;
    }
    return got;
  }

  it('resumes after a cursor, then delivers events appended later, in order, until the client cancels', async () => {
    const account = newAccount();
    const watch = await watchOf(account);
    const earlier = await appendEvents(account, watch, 3, 'before');
    const cancel = new AbortController();
    const stream = t.client.streamWatchEvents({ cursor: earlier[0]!.id }, { ...as(account), signal: cancel.signal });
    const later = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return [...await appendEvents(account, watch, 2, 'after-1'), ...await appendEvents(account, watch, 1, 'after-2')];
    })();
    const got = await take(stream, 5);
    const appendedLater = await later;
    expect(got.map((m) => m.event!.id)).toEqual([earlier[1]!, earlier[2]!, ...appendedLater].map((e) => e.id));
    expect(got.map((m) => m.cursor)).toEqual(got.map((m) => m.event!.id));
    cancel.abort();
  });

  it('without a cursor starts with the events that come after it was opened, of the named watch only', async () => {
    const account = newAccount();
    const watch = await watchOf(account);
    const other = await watchOf(account);
    await appendEvents(account, watch, 2, 'old');
    const cancel = new AbortController();
    const stream = t.client.streamWatchEvents({ watchId: watch }, { ...as(account), signal: cancel.signal });
    const iterator = stream[Symbol.asyncIterator]();
    const next = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await appendEvents(account, other, 1, 'elsewhere');
    const [fresh] = await appendEvents(account, watch, 1, 'new');
    expect((await next).value?.event?.id).toBe(fresh!.id);
    cancel.abort();
  });

  it('refuses a cursor that is not an event id and another account\'s watch', async () => {
    const account = newAccount();
    const bad = await failureOf(take(t.client.streamWatchEvents({ cursor: 'abc' }, as(account)), 1));
    expect(bad).toMatchObject({ code: Code.InvalidArgument, detail: { reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['cursor'] } });
    const foreign = await failureOf(take(t.client.streamWatchEvents({ watchId: await watchOf(newAccount()) }, as(account)), 1));
    expect(foreign).toMatchObject({ code: Code.NotFound, detail: { reason: ErrorReason.NOT_FOUND, fieldPath: ['watch_id'] } });
  });
});

describe('webhook deliveries', () => {
  it('lists a watch\'s deliveries newest first and redelivers a dead one: reopened, its job queued under its id', async () => {
    const account = newAccount();
    const { retailWatch: watch } = await t.client.createWatch({ asin: newAsin(), webhook: { url: 'https://receiver.example.com/in' } }, as(account));
    const events = await appendEvents(account, watch!.id, 2, 'deliver');
    const rows: DeliveryRecord[] = [];
    for (const event of events) rows.push(await t.store.deliveries.create({ eventId: event.id, watchId: watch!.id, accountId: account, url: 'https://receiver.example.com/in' }));
    await t.store.deliveries.recordAttempt(rows[0]!.id, { status: 'DEAD', responseStatus: 410, error: 'the receiver answered 410' });

    const listed = (await t.client.listWebhookDeliveries({ watchId: watch!.id }, as(account))).retailWebhookDeliveries!;
    expect(listed.deliveries.map((d) => d.id)).toEqual([rows[1]!.id, rows[0]!.id]);
    expect(listed.deliveries[1]).toMatchObject({ status: WebhookDeliveryStatus.DEAD, attemptCount: 1, lastResponseStatus: 410, eventId: events[0]!.id });

    const { retailWebhookDelivery: reopened } = await t.client.redeliverWebhook({ watchId: watch!.id, deliveryId: rows[0]!.id }, as(account));
    expect(reopened).toMatchObject({ id: rows[0]!.id, status: WebhookDeliveryStatus.PENDING, attemptCount: 1 });
    await eventually(() => t.deliveryRuns.includes(rows[0]!.id));

    const otherWatch = await watchOf(account);
    const wrongWatch = await failureOf(t.client.redeliverWebhook({ watchId: otherWatch, deliveryId: rows[1]!.id }, as(account)));
    expect(wrongWatch).toMatchObject({ code: Code.NotFound, detail: { fieldPath: ['delivery_id'] } });
    const unknown = await failureOf(t.client.redeliverWebhook({ watchId: watch!.id, deliveryId: '999999999' }, as(account)));
    expect(unknown.code).toBe(Code.NotFound);
  });
});
