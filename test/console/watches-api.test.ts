/**
 * The Watches page's API over real HTTP: the console's routes acting for the signed-in account
 * through its real path to the watcher (createClientWatchApi over the gateways' gRPC client) to the
 * watcher's CONTRACT DOUBLE (test/harness/watch-backend.ts, shared with the gateway tests; not the
 * watcher). Input is checked by the proto's declared rules before any call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Domain } from '@retail/contract';
import { createClientWatchApi, type WatchApi } from '@retail/console';
import { createCoreClient } from '@retail/gateway-shared/core-client';
import type { Metering } from '@retail/metering/api';
import { startWatchBackend, type WatchBackend } from '../harness/watch-backend.js';
import { createTestMetering } from './metering.js';
import { ConsoleClient, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

const TOKEN = 'console-watches-service-token';
let metering: Metering;
let backend: WatchBackend;
let server: RunningConsole;
let plain: RunningConsole;

const watchApiTo = (address: string): WatchApi =>
  createClientWatchApi({ client: createCoreClient({ address, watcherAddress: address, serviceToken: TOKEN, deadlineMs: 5_000 }), meter: metering.meter });

beforeAll(async () => {
  metering = await createTestMetering();
  backend = await startWatchBackend({ serviceToken: TOKEN });
  server = await startConsole({ metering, watches: watchApiTo(backend.address) });
  plain = await startConsole({ metering });
});
afterAll(async () => {
  await server.close();
  await plain.close();
  await backend.close();
  await metering.close();
});

const watchesOf = (accountId: string) => [...backend.watches.values()].filter((entry) => entry.accountId === accountId).map((entry) => entry.watch.id);

async function signedIn(base = server.base) {
  const client = new ConsoleClient(base);
  const response = await client.signUp(uniqueEmail('watches'));
  return { client, accountId: response.body.data.user.accountId as string };
}

const CREATE = { asin: 'B000TEST01', domain: 'US', intervalSeconds: 900, conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9 }], label: 'kettle' };

describe('the watches API', () => {
  it('is absent, and the session says so, when the console has no watch service', async () => {
    const { client } = await signedIn(plain.base);
    expect((await client.get('session')).body.data.watches).toBe(false);
    expect((await client.get('watches')).status).toBe(404);
    const withService = await signedIn();
    expect((await withService.client.get('session')).body.data.watches).toBe(true);
  });

  it('needs a signed-in session and the CSRF token', async () => {
    const anonymous = new ConsoleClient(server.base);
    await anonymous.get('session');
    expect((await anonymous.get('watches')).status).toBe(401);
    const { client } = await signedIn();
    const created = await client.post('watches', CREATE);
    const id = created.body.data.retailWatch.id;
    for (const [method, path, body] of [['POST', 'watches', CREATE], ['PATCH', `watches/${id}`, { status: 'PAUSED' }], ['DELETE', `watches/${id}`, undefined]] as const) {
      const refused = await client.request(method, path, body, { csrf: null });
      expect(refused.status, `${method} ${path}`).toBe(403);
    }
    expect((await client.get(`watches/${id}`)).body.data.retailWatch.status).toBe('ACTIVE');
  });

  it('offers the form choices declared in the proto, the intervals narrowed to the account\'s plan', async () => {
    const { client } = await signedIn();
    const { data } = (await client.get('watches/options')).body;
    expect(data.domains).toHaveLength(13);
    expect(data.domains[0]).toBe('US');
    expect(data.conditionTypes).toEqual(['PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT', 'BACK_IN_STOCK', 'OUT_OF_STOCK', 'BUYBOX_SELLER_CHANGED', 'ANY_CHANGE']);
    // A new account is on the free plan: hourly at most often (docs/metering.md), so 15 and 30 minutes are not offered.
    expect(data.plan).toBe('free');
    expect(data.intervalSeconds).toEqual({ minimum: 3600, maximum: 604800, default: 3600 });
  });

  it('creates a watch for the session account, shows the webhook secret once, then lists it without', async () => {
    const { client, accountId } = await signedIn();
    const created = await client.post('watches', { ...CREATE, webhook: { url: 'https://hooks.example.com/retail' } });
    expect(created.status).toBe(200);
    const watch = created.body.data.retailWatch;
    expect(watch).toMatchObject({ asin: 'B000TEST01', label: 'kettle', status: 'ACTIVE', intervalSeconds: 900 });
    expect(watch.webhook.secret).toMatch(/^whsec_/);
    expect(watchesOf(accountId)).toEqual([watch.id]);

    const listed = (await client.get('watches')).body.data.retailWatches;
    expect(listed.watches.map((w: any) => w.id)).toEqual([watch.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expect((await client.get(`watches/${watch.id}`)).body.data.retailWatch.webhook).toEqual({ url: 'https://hooks.example.com/retail' });
  });

  it('refuses bad input with every field problem, before calling the service', async () => {
    const { client } = await signedIn();
    const before = backend.calls.length;
    const refused = await client.post('watches', {
      asin: 'short',
      intervalSeconds: 60,
      conditions: [{ type: 'CHEAPER' }, { type: 'PRICE_DROP_PERCENT', value: -5 }],
      webhook: { url: 'ftp://hooks.example.com' },
      colour: 'red',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.success).toBe(false);
    const paths = refused.body.errors.map((e: any) => e.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['colour', 'asin', 'intervalSeconds', 'conditions.0.type', 'conditions.1.value', 'webhook.url']));
    expect(refused.body.errors.find((e: any) => e.path.join('.') === 'intervalSeconds').message).toMatch(/900/);

    const two = await client.post('watches', { asin: 'B000TEST01', url: 'https://www.amazon.com/dp/B000TEST01' });
    expect(two.status).toBe(400);
    expect(two.body.errors[0].message).toMatch(/exactly one of/);
    expect((await client.post('watches', {})).body.errors[0].path).toEqual(['asin']);
    expect((await client.request('PATCH', 'watches/not-a-uuid', { status: 'PAUSED' })).status).toBe(400);
    expect((await client.get('product/history?domain=US')).body.errors[0]).toMatchObject({ path: ['query', 'asin'] });
    expect((await client.get('watches?limit=0')).body.errors[0]).toMatchObject({ path: ['query', 'limit'] });
    expect(backend.calls.length).toBe(before);
  });

  it("passes the service's refusals on with their message and path, and keeps accounts apart", async () => {
    const { client } = await signedIn();
    const refused = await client.post('watches', { url: 'https://www.amazon.com/gp/help' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toEqual({ code: 400, message: 'this double resolves only asin and /dp/ URLs', path: ['asin'] });

    const mine = (await client.post('watches', CREATE)).body.data.retailWatch.id;
    const other = await signedIn();
    for (const response of [await other.client.get(`watches/${mine}`), await other.client.delete(`watches/${mine}`), await other.client.get(`watches/${mine}/deliveries`)]) {
      expect(response.status).toBe(404);
      expect(response.body.errors[0].message).toBe('watch not found');
    }
    expect((await client.get(`watches/${mine}`)).status).toBe(200);
  });

  it('pauses, resumes and deletes', async () => {
    const { client } = await signedIn();
    const id = (await client.post('watches', CREATE)).body.data.retailWatch.id;
    const paused = await client.request('PATCH', `watches/${id}`, { status: 'PAUSED' });
    expect(paused.body.data.retailWatch).toMatchObject({ status: 'PAUSED', pausedReason: 'USER' });
    expect(backend.calls.at(-1)!.request).toMatchObject({ id, replaceConditions: false });
    expect((await client.request('PATCH', `watches/${id}`, { status: 'ACTIVE' })).body.data.retailWatch.status).toBe('ACTIVE');
    expect((await client.request('PATCH', `watches/${id}`, { status: 'GONE' })).body.errors[0].path).toEqual(['status']);
    expect((await client.delete(`watches/${id}`)).body.data.retailWatch).toEqual({ id, deleted: true });
    expect((await client.get(`watches/${id}`)).status).toBe(404);
  });

  it('reads history, events and deliveries, and redelivers', async () => {
    const { client, accountId } = await signedIn();
    const watch = (await client.post('watches', { ...CREATE, webhook: { url: 'https://hooks.example.com/r' } })).body.data.retailWatch;
    backend.setHistory(Domain.US, watch.asin, [{ at: timestampFromMs(Date.UTC(2026, 10, 25, 12)), price: { value: 8, currency: 'USD' }, isInStock: true }]);
    const history = (await client.get(`product/history?asin=${watch.asin}&domain=US&maxPoints=24`)).body.data.retailProductHistory;
    expect(history.points).toEqual([expect.objectContaining({ at: '2026-11-25T12:00:00.000Z', price: { value: 8, currency: 'USD' }, isInStock: true, listPrice: null })]);
    expect(backend.calls.at(-1)).toMatchObject({ method: 'GetProductHistory', accountId, request: { asin: watch.asin, domain: Domain.US, maxPoints: 24 } });

    backend.addEvent(accountId, watch.id);
    backend.addDelivery(watch.id);
    const events = (await client.get(`watches/events?watchId=${watch.id}`)).body.data.retailWatchEvents.events;
    expect(events.map((e: any) => e.type)).toEqual(['PRICE_AT_OR_BELOW']);
    const [delivery] = (await client.get(`watches/${watch.id}/deliveries`)).body.data.retailWebhookDeliveries.deliveries;
    expect(delivery.status).toBe('DEAD');
    const redelivered = await client.post(`watches/${watch.id}/deliveries/${delivery.id}/redeliver`);
    expect(redelivered.body.data.retailWebhookDelivery).toMatchObject({ id: delivery.id, status: 'PENDING' });
    expect((await client.post(`watches/${watch.id}/deliveries/abc/redeliver`)).body.errors[0].path).toEqual(['deliveryId']);
  });

  it('answers 503 with Retry-After while the watch service cannot be reached', async () => {
    const gone = await startWatchBackend({ serviceToken: TOKEN });
    await gone.close();
    const orphan = await startConsole({ metering, watches: watchApiTo(gone.address) });
    try {
      const { client } = await signedIn(orphan.base);
      const response = await client.get('watches');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.body).toEqual({ success: false, errors: [{ code: 503, message: 'the service is temporarily unavailable; retry later' }] });
    } finally {
      await orphan.close();
    }
  });

  it('never answers 5xx to arbitrary JSON bodies', async () => {
    const { client } = await signedIn();
    const id = (await client.post('watches', CREATE)).body.data.retailWatch.id;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(['POST', 'watches'], ['PATCH', `watches/${id}`]), fc.jsonValue(), async ([method, path], body) => {
        const response = await client.request(method, path, undefined, { rawBody: JSON.stringify(body) });
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(response.body.success).toBe(false);
      }),
      { numRuns: 80 },
    );
  });
});
