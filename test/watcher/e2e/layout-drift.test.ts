/**
 * Issue 23's scenario end to end, every part real: a real core (its page cache, single flight, host
 * caps and breaker) reading a test origin that serves the project's timeline product page, plain or
 * drifted (drifted-page.ts: the price and availability blocks renamed, as a redesign does); the
 * watcher's refresh processor over gRPC; PostgreSQL for the store; the ledger on a real redis-server.
 * Runs are driven one by one (the core's product pages stay cached for one second, so each round
 * waits that out), never by a schedule. Skips, saying so, without PostgreSQL or redis-server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCoreClient } from '@retail/gateway-shared';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition } from '../../../watcher/src/model.js';
import { createCoreSnapshotReader, createRefreshProcessor } from '../../../watcher/src/refresh/index.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { createMovableClock, startCore, type StartedCore } from '../../harness/core.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import { timelinePage, type TimelineState } from '../../replay/timeline-page.js';
import { eventTypes, HOUR, newWatch, recordingQueue, runOf, START } from '../refresh/fixtures.js';
import { driftedPage } from './drifted-page.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const ACME = { sellerId: 'A1TIMELINEACME', sellerName: 'Acme Direct' } as const;
const atPrice = (price: number): TimelineState => ({ inStock: true, price, ...ACME });

/** What the test origin serves for one product, and how many times the core fetched it. */
interface Served { state: TimelineState; drifted: boolean; spikeOnce?: number; fetches: number }

/** A marketplace stand-in serving the timeline page of each product in `served` (404 for any other). */
async function startOrigin(served: Map<string, Served>): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const asin = /^\/(?:dp|gp\/product)\/([A-Z0-9]{10})/.exec(request.url ?? '')?.[1];
    const product = asin ? served.get(asin) : undefined;
    if (!asin || !product) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Page Not Found</body></html>');
    product.fetches += 1;
    // A spike is on the page for one fetch only: what a block read from the wrong place once looks like.
    const state = product.spikeOnce !== undefined ? atPrice(product.spikeOnce) : product.state;
    delete product.spikeOnce;
    const html = timelinePage(asin, state);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(product.drifted ? driftedPage(html) : html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const PRICE_AND_STOCK: Condition[] = [
  { type: 'PRICE_AT_OR_BELOW', value: 9 },
  { type: 'PRICE_DROP_PERCENT', value: 20 },
  { type: 'OUT_OF_STOCK' },
  { type: 'BACK_IN_STOCK' },
  { type: 'BUYBOX_SELLER_CHANGED' },
  { type: 'ANY_CHANGE' },
];

describe.skipIf(missing !== null)('a watch through a layout drift, every part real', () => {
  const served = new Map<string, Served>();
  let redis: RedisServer;
  let metering: MeteringInstance;
  let database: TestDatabase;
  let store: WatchStore;
  let origin: { origin: string; server: Server };
  let core: StartedCore;
  const coreClock = createMovableClock();
  let refresh: ReturnType<typeof createRefreshProcessor>;

  beforeAll(async () => {
    redis = await startRedis();
    metering = await createMetering({ redisUrl: redis.url });
    database = await createTestDatabase('watcher_drift');
    store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }), { clock: () => new Date(START) });
    origin = await startOrigin(served);
    core = await startCore({ marketplaceOrigin: origin.origin, env: { CACHE_TTL_SECONDS: 'product=600' }, clock: coreClock.clock });
    const reader = createCoreSnapshotReader(createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 }));
    refresh = createRefreshProcessor({ store, meter: metering.meter, reader, deliveries: recordingQueue() });
  }, 120_000);
  afterAll(async () => {
    await core?.stop();
    await new Promise((resolve) => origin?.server.close(resolve));
    await store?.close();
    await database?.drop();
    await metering?.close();
    await redis?.stop();
  });

  /** One watch per product; `steps[n]` sets each product's page before round n; the events each round appended. */
  async function rounds(products: Record<string, Array<(p: Served) => void>>) {
    const watches = new Map<string, { accountId: string; watchId: string }>();
    for (const asin of Object.keys(products)) {
      served.set(asin, { state: atPrice(10), drifted: false, fetches: 0 });
      const { accountId } = await metering.admin.createAccount({ units: 20 });
      watches.set(asin, { accountId, watchId: (await newWatch(store, accountId, asin, { conditions: PRICE_AND_STOCK })).id });
    }
    const length = Math.max(...Object.values(products).map((steps) => steps.length));
    const events = new Map(Object.keys(products).map((asin) => [asin, [] as string[][]]));
    const fetches = new Map(Object.keys(products).map((asin) => [asin, [] as number[]]));
    for (let round = 0; round < length; round++) {
      // The core keeps a product page ten minutes and its clock moves an hour a round: a refresh's
      // two reads share one fetch and every round reads the page afresh, however slow the machine.
      coreClock.setAhead(round * HOUR);
      await Promise.all(Object.entries(products).map(async ([asin, steps]) => {
        const product = served.get(asin)!;
        steps[round]?.(product);
        const { accountId, watchId } = watches.get(asin)!;
        const before = (await eventTypes(store, accountId, watchId)).length;
        const fetched = product.fetches;
        await refresh(runOf('US', asin, START + round * HOUR));
        events.get(asin)!.push((await eventTypes(store, accountId, watchId)).slice(before));
        fetches.get(asin)!.push(product.fetches - fetched);
      }));
    }
    const points = async (asin: string) => store.snapshots.history({ domain: 'US', asin, from: new Date(START), to: new Date(START + length * HOUR) });
    return { events, fetches, points, watches };
  }

  it('fires no watch event when the price and availability blocks are renamed, nor when they return, and stores the drifted points marked; a confirmed drop fires once; an unconfirmed spike is stored suspect and fires nothing', async () => {
    const plain = (p: Served) => void (p.drifted = false);
    const { events, fetches, points, watches } = await rounds({
      // The redesign: two refreshes on the drifted page, then the old layout again at the same price.
      B0FXDRIFT1: [plain, (p) => void (p.drifted = true), () => undefined, plain],
      // A real drop of 50 %, beyond the plausibility bound: confirmed by a fresh read, then fired once.
      B0FXDRIFT2: [plain, (p) => void (p.state = atPrice(5)), () => undefined, () => undefined],
      // A price of 1 on the page for one fetch: the fresh read shows 10 again.
      B0FXDRIFT3: [plain, (p) => void (p.spikeOnce = 1), () => undefined, () => undefined],
    });

    expect(events.get('B0FXDRIFT1')).toEqual([[], [], [], []]);
    const drifted = await points('B0FXDRIFT1');
    expect(drifted.map((p) => p.quality ?? 'ok')).toEqual(['ok', 'suspect', 'suspect', 'ok']);
    expect(drifted[1]!.unknownFields).toEqual(expect.arrayContaining(['price', 'isInStock', 'buyboxSellerId']));
    expect(drifted[1]).not.toHaveProperty('price');
    expect(drifted[1]).not.toHaveProperty('isInStock');
    expect(drifted[3]).toMatchObject({ price: { value: 10, currency: 'USD' }, isInStock: true });

    expect(events.get('B0FXDRIFT2')).toEqual([[], ['PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT', 'ANY_CHANGE'], [], []]);
    // The drop's round fetched the page twice: the refresh's read and the fresh read past the cache.
    expect(fetches.get('B0FXDRIFT2')).toEqual([1, 2, 1, 1]);
    expect((await points('B0FXDRIFT2')).map((p) => p.quality ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok']);

    expect(events.get('B0FXDRIFT3')).toEqual([[], [], [], []]);
    // The spike's page was in the core's cache when the fresh read came: only a read past it saw 10.
    expect(fetches.get('B0FXDRIFT3')).toEqual([1, 2, 1, 1]);
    const spiked = await points('B0FXDRIFT3');
    expect(spiked[1]).toMatchObject({ quality: 'suspect', suspectFields: ['price'], price: { value: 1, currency: 'USD' } });
    expect(spiked.map((p) => p.quality ?? 'ok')).toEqual(['ok', 'suspect', 'ok', 'ok']);

    // Each watch paid one unit per refresh; no confirmation read was charged.
    for (const { accountId } of watches.values()) expect((await metering.admin.summary(accountId)).balance).toBe(20 - 4);
  });
});
