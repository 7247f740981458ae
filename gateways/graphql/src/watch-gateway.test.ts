/**
 * The watch operations through the GraphQL gateway over real HTTP, with the real metering library
 * (memory ledger) and the watcher's contract double (test/harness/watch-backend.ts) over real gRPC.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Domain, ErrorReason, WatchConditionType, WatchStatus } from '@retail/contract';
import { type CoreClient, createCoreClient } from '@retail/gateway-shared';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WatchBackend, WatchBackendError, startWatchBackend } from '../../../test/harness/watch-backend.js';
import { createGraphqlApp } from './app.js';

const TOKEN = 'test-service-token';
const ASIN = 'B08N5WRWNW';
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A label that makes the test's client wait before calling the watcher, to show mutations never overlap. */
const SLOW_LABEL = 'slow';

let backend: WatchBackend;
let metering: MeteringInstance;
const servers: Server[] = [];
let base: string;
let baseWithoutWatcher: string;

async function newAccount(units: number, plan = 'unlimited'): Promise<{ accountId: string; key: string }> {
  const { accountId } = await metering.admin.createAccount({ units, plan });
  return { accountId, key: (await metering.admin.createKey(accountId)).key };
}

async function gql(key: string, query: string, variables?: Record<string, unknown>, at = base) {
  const res = await fetch(`${at}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': key },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

const charged = (res: { headers: Headers }) => res.headers.get('x-units-charged');
const callsSince = (n: number) => backend.calls.slice(n);

async function listen(core: CoreClient): Promise<string> {
  const app = await createGraphqlApp({ core, metering, maxOperations: 6, maxDepth: 8 });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const CREATE = `mutation Create($conditions: [WatchConditionInput!], $webhook: WebhookTargetInput, $label: String) {
  createRetailWatch(asin: "${ASIN}", intervalSeconds: 900, conditions: $conditions, webhook: $webhook, label: $label) {
    id asin domain label intervalSeconds status createdAt lastRefreshAt conditions { type value } webhook { url secret }
  }
}`;

async function createWatch(key: string, label?: string): Promise<string> {
  const res = await gql(key, CREATE, label ? { label } : {});
  expect(res.json.errors).toBeUndefined();
  return res.json.data.createRetailWatch.id as string;
}

beforeAll(async () => {
  backend = await startWatchBackend({ serviceToken: TOKEN });
  metering = await createMetering({ plans: { tiny: { ratePerSecond: 0.001, burst: 1 }, unlimited: { ratePerSecond: Infinity, burst: Infinity } } });
  // Nothing here reaches the core: its address is never dialled (connections are made per call).
  const client = createCoreClient({ address: '127.0.0.1:9', serviceToken: TOKEN, deadlineMs: 5000, watcherAddress: backend.address });
  const delayed: CoreClient = {
    ...client,
    async callOperation(op, request, options) {
      if (request.label === SLOW_LABEL) await new Promise((resolve) => setTimeout(resolve, 300));
      return client.callOperation(op, request, options);
    },
  };
  base = await listen(delayed);
  baseWithoutWatcher = await listen(createCoreClient({ address: '127.0.0.1:9', serviceToken: TOKEN, deadlineMs: 5000 }));
});

afterAll(async () => {
  for (const server of servers) server.close();
  await metering?.close();
  await backend?.close();
});

describe('GraphQL watch operations', () => {
  it('creates a watch from nested input objects for the key\'s account, free, timestamps as RFC 3339 strings', async () => {
    const { accountId, key } = await newAccount(50);
    const before = backend.calls.length;
    const res = await gql(key, CREATE, {
      conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9.5 }, { type: 'BACK_IN_STOCK' }],
      webhook: { url: 'https://hooks.example.com/retail' },
      label: 'desk',
    });
    expect(res.status).toBe(200);
    expect(res.json.errors).toBeUndefined();
    expect(res.json.data.createRetailWatch).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      asin: ASIN,
      domain: 'US',
      label: 'desk',
      intervalSeconds: 900,
      status: 'ACTIVE',
      createdAt: expect.stringMatching(RFC_3339),
      lastRefreshAt: expect.stringMatching(RFC_3339),
      conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9.5 }, { type: 'BACK_IN_STOCK', value: null }],
      webhook: { url: 'https://hooks.example.com/retail', secret: expect.stringMatching(/^whsec_/) },
    });
    const [call] = callsSince(before);
    expect(call).toMatchObject({
      method: 'CreateWatch',
      accountId,
      request: { asin: ASIN, intervalSeconds: 900, label: 'desk', conditions: [{ type: WatchConditionType.PRICE_AT_OR_BELOW, value: 9.5 }, { type: WatchConditionType.BACK_IN_STOCK }], webhook: { url: 'https://hooks.example.com/retail' } },
    });
    expect([charged(res), res.headers.get('x-units-remaining')]).toEqual(['0', '50']);
    expect(res.json.extensions).toMatchObject({ unitsCharged: 0, unitsRemaining: 50 });
  });

  it('lists, reads, pages events and deliveries of the account only; another account\'s watch is a 404 field error', async () => {
    const owner = await newAccount(5);
    const other = await newAccount(5);
    const id = await createWatch(owner.key);
    backend.addEvent(owner.accountId, id);
    const delivery = backend.addDelivery(id);
    const query = `query($id: String!) {
      retailWatches(limit: 10) { watches { id } nextCursor }
      retailWatch(id: $id) { id status nextRefreshAt }
      retailWatchEvents(watchId: $id) { events { watchId type at after { price { value currency } } } nextCursor }
      retailWebhookDeliveries(watchId: $id) { deliveries { id status createdAt } }
    }`;
    const mine = await gql(owner.key, query, { id });
    expect(mine.json.errors).toBeUndefined();
    expect(mine.json.data).toEqual({
      retailWatches: { watches: [{ id }], nextCursor: null },
      retailWatch: { id, status: 'ACTIVE', nextRefreshAt: expect.stringMatching(RFC_3339) },
      retailWatchEvents: { events: [{ watchId: id, type: 'PRICE_AT_OR_BELOW', at: expect.stringMatching(RFC_3339), after: { price: { value: 8, currency: 'USD' } } }], nextCursor: null },
      retailWebhookDeliveries: { deliveries: [{ id: delivery.id, status: 'DEAD', createdAt: expect.stringMatching(RFC_3339) }] },
    });
    expect(charged(mine)).toBe('0');

    const before = backend.calls.length;
    const theirs = await gql(other.key, 'query($id: String!) { retailWatch(id: $id) { id } retailWatches { watches { id } } }', { id });
    expect(theirs.status).toBe(200);
    expect(theirs.json.data).toEqual({ retailWatch: null, retailWatches: { watches: [] } });
    expect(theirs.json.errors).toEqual([{ message: 'watch not found', code: 404, extensions: { code: 404 }, path: ['retailWatch'], locations: expect.any(Array) }]);
    expect(callsSince(before).map((c) => [c.method, c.accountId])).toEqual([['GetWatch', other.accountId], ['ListWatches', other.accountId]]);
    expect(charged(theirs)).toBe('0');
  });

  it('updates (written conditions replace them, [] clears them), redelivers and deletes', async () => {
    const { key } = await newAccount(5);
    const id = await createWatch(key);
    const update = 'mutation($id: String!, $c: [WatchConditionInput!]) { updateRetailWatch(id: $id, conditions: $c, status: PAUSED) { status pausedReason conditions { type } } }';
    const before = backend.calls.length;
    const replaced = await gql(key, update, { id, c: [{ type: 'ANY_CHANGE' }] });
    expect(replaced.json.data.updateRetailWatch).toEqual({ status: 'PAUSED', pausedReason: 'USER', conditions: [{ type: 'ANY_CHANGE' }] });
    const cleared = await gql(key, update, { id, c: [] });
    expect(cleared.json.data.updateRetailWatch.conditions).toEqual([]);
    const kept = await gql(key, 'mutation($id: String!) { updateRetailWatch(id: $id, label: "kept") { conditions { type } } }', { id });
    expect(kept.json.data.updateRetailWatch.conditions).toEqual([]);
    expect(callsSince(before).map((c) => [c.request.replaceConditions, c.request.status])).toEqual([[true, WatchStatus.PAUSED], [true, WatchStatus.PAUSED], [false, undefined]]);

    const delivery = backend.addDelivery(id);
    const redelivered = await gql(key, `mutation { redeliverRetailWebhook(watchId: "${id}", deliveryId: "${delivery.id}") { id status nextAttemptAt } }`);
    expect(redelivered.json.data.redeliverRetailWebhook).toEqual({ id: delivery.id, status: 'PENDING', nextAttemptAt: expect.stringMatching(RFC_3339) });

    const deleted = await gql(key, `mutation { deleteRetailWatch(id: "${id}") { id deleted } }`);
    expect(deleted.json.data.deleteRetailWatch).toEqual({ id, deleted: true });
    const gone = await gql(key, `{ retailWatch(id: "${id}") { id } }`);
    expect([gone.json.data.retailWatch, gone.json.errors?.[0]?.code]).toEqual([null, 404]);
    for (const res of [replaced, cleared, kept, redelivered, deleted, gone]) expect(charged(res)).toBe('0');
  });

  it('charges exactly one unit per product history field, none when it fails, and only that field in a mixed request', async () => {
    const { key } = await newAccount(3);
    backend.setHistory(Domain.US, ASIN, [
      { at: { seconds: 1764064800n }, price: { value: 10, currency: 'USD', symbol: '$' }, isInStock: true },
      { at: { seconds: 1764068400n }, isInStock: false },
    ]);
    const history = `{ retailProductHistory(asin: "${ASIN}", maxPoints: 10) { asin domain points { at price { value } isInStock } } }`;
    const first = await gql(key, history);
    expect(first.json.data.retailProductHistory).toEqual({
      asin: ASIN,
      domain: 'US',
      points: [{ at: '2025-11-25T10:00:00.000Z', price: { value: 10 }, isInStock: true }, { at: '2025-11-25T11:00:00.000Z', price: null, isInStock: false }],
    });
    expect([charged(first), first.headers.get('x-units-remaining')]).toEqual(['1', '2']);

    backend.failNext('GetProductHistory', new WatchBackendError(ErrorReason.INTERNAL, 'the history store failed'));
    const failed = await gql(key, history);
    expect(failed.status).toBe(200);
    expect(failed.json.data).toEqual({ retailProductHistory: null });
    expect(failed.json.errors[0]).toMatchObject({ code: 500, path: ['retailProductHistory'] });
    expect([charged(failed), failed.headers.get('x-units-remaining')]).toEqual(['0', '2']);

    const mixed = await gql(key, `{ retailWatches { nextCursor } a: retailProductHistory(asin: "${ASIN}") { asin } b: retailProductHistory(asin: "${ASIN}", maxPoints: 2) { asin } }`);
    expect(mixed.json.errors).toBeUndefined();
    expect([charged(mixed), mixed.headers.get('x-units-remaining')]).toEqual(['2', '0']);

    // Out of units: history is refused as a whole with 402; managing watches stays free.
    const broke = await gql(key, history);
    expect([broke.status, broke.json.errors?.[0]?.code]).toEqual([402, 402]);
    expect((await gql(key, '{ retailWatches { nextCursor } }')).json.data).toEqual({ retailWatches: { nextCursor: null } });
  });

  it('counts free calls against the rate limit: the second is 429 with Retry-After, nothing charged or called', async () => {
    const { key } = await newAccount(5, 'tiny');
    const first = await gql(key, '{ retailWatches { nextCursor } }');
    expect([first.status, charged(first)]).toEqual([200, '0']);
    const before = backend.calls.length;
    const second = await gql(key, `mutation { createRetailWatch(asin: "${ASIN}") { id } }`);
    expect(second.status).toBe(429);
    expect(second.json).toEqual({ success: false, errors: [{ code: 429, message: expect.any(String) }] });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect([charged(second), backend.calls.length]).toEqual(['0', before]);
  });

  it('refuses bad input with a 400 envelope naming the argument and item, before any call or charge', async () => {
    const { key } = await newAccount(5);
    const before = backend.calls.length;
    const negative = await gql(key, `mutation { createRetailWatch(asin: "${ASIN}", conditions: [{ type: ANY_CHANGE }, { type: PRICE_AT_OR_BELOW, value: -1 }]) { id } }`);
    expect(negative.status).toBe(400);
    expect(negative.json).toEqual({ success: false, errors: [{ code: 400, message: 'conditions[1].value must be at least 0', path: ['conditions', '1', 'value'] }] });
    const http = await gql(key, `mutation { createRetailWatch(asin: "${ASIN}", webhook: { url: "ftp://hooks.example.com" }) { id } }`);
    expect(http.json).toMatchObject({ success: false, errors: [{ code: 400, message: expect.stringMatching(/^webhook\.url /), path: ['webhook', 'url'] }] });
    const extra = await gql(key, CREATE, { webhook: { url: 'https://hooks.example.com', secret: 'mine' } });
    expect(extra.json).toEqual({ success: false, errors: [{ code: 400, message: 'unknown parameter webhook.secret', path: ['webhook'] }] });
    const badId = await gql(key, '{ retailWatch(id: "nope") { id } }');
    expect(badId.json).toMatchObject({ success: false, errors: [{ code: 400, path: ['id'] }] });
    const missing = await gql(key, 'mutation { deleteRetailWatch { id } }');
    expect(missing.json).toEqual({ success: false, errors: [{ code: 400, message: 'id is required', path: ['id'] }] });
    for (const res of [http, extra, badId, missing]) expect(res.status).toBe(400);
    for (const res of [negative, http, extra, badId, missing]) expect(charged(res)).toBe('0');
    expect(backend.calls.length).toBe(before);
  });

  it('runs mutations one after another in document order, even when the first is slow', async () => {
    const { key } = await newAccount(5);
    const before = backend.calls.length;
    const res = await gql(key, `mutation {
      slow: createRetailWatch(asin: "${ASIN}", label: "${SLOW_LABEL}") { label }
      fast: createRetailWatch(asin: "${ASIN}", label: "fast") { label }
    }`);
    expect(res.json.data).toEqual({ slow: { label: SLOW_LABEL }, fast: { label: 'fast' } });
    // Run side by side, the fast one would reach the watcher first.
    expect(callsSince(before).map((c) => c.request.label)).toEqual([SLOW_LABEL, 'fast']);
  });

  it('never runs a mutation over GET', async () => {
    const { key } = await newAccount(5);
    const id = await createWatch(key);
    const before = backend.calls.length;
    const query = encodeURIComponent(`mutation { deleteRetailWatch(id: "${id}") { deleted } }`);
    const res = await fetch(`${base}/api/graphql?query=${query}`, { headers: { 'api-key': key, accept: 'application/json' } });
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
    expect(await res.json()).toMatchObject({ success: false, errors: [{ code: 405 }] });
    expect(backend.calls.length).toBe(before);
    expect(backend.watches.has(id)).toBe(true);
  });

  it('without WATCHER_ADDRESS answers each watch field 501 UNIMPLEMENTED and charges nothing', async () => {
    const { key } = await newAccount(5);
    const before = backend.calls.length;
    const res = await gql(key, `{ retailWatches { nextCursor } retailProductHistory(asin: "${ASIN}") { asin } }`, undefined, baseWithoutWatcher);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ retailWatches: null, retailProductHistory: null });
    expect(res.json.errors).toEqual([
      expect.objectContaining({ code: 501, extensions: { code: 501 }, path: ['retailWatches'], message: expect.stringMatching(/WATCHER_ADDRESS/) }),
      expect.objectContaining({ code: 501, path: ['retailProductHistory'] }),
    ]);
    expect([charged(res), res.headers.get('x-units-remaining')]).toEqual(['0', '5']);
    const created = await gql(key, `mutation { createRetailWatch(asin: "${ASIN}") { id } }`, undefined, baseWithoutWatcher);
    expect([created.json.data.createRetailWatch, created.json.errors?.[0]?.code, charged(created)]).toEqual([null, 501, '0']);
    expect(backend.calls.length).toBe(before);
  });
});
