/**
 * The watch operations over REST against a real gRPC WatchService (the contract double in
 * test/harness/watch-backend.ts) and a real Redis ledger: bodies and path parameters reach the
 * watcher with the caller's account, every answer is the contract's envelope and validates against
 * the served OpenAPI document, and refusals happen before the watcher is called.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ErrorReason, WatchConditionType, WebhookDeliveryStatus } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseValidator } from '../../../test/contract/openapi-validator.js';
import { type RedisServer, redisMissing, startRedis } from '../../../test/harness/redis.js';
import { type WatchBackend, startWatchBackend } from '../../../test/harness/watch-backend.js';
import { createRestApp } from './app.js';
import { buildOpenApi } from './openapi.js';

const missing = redisMissing();
const TOKEN = 'watch-rest-token';
const responses = createResponseValidator(buildOpenApi());

type Body = Record<string, unknown> & { data?: Record<string, Record<string, unknown>>; errors?: Array<{ code: number; message: string; path?: string[] }> };

describe.skipIf(missing !== null)('watch operations over REST', () => {
  let redis: RedisServer;
  let metering: MeteringInstance;
  let backend: WatchBackend;
  let server: Server;
  let base: string;
  const accounts: Record<'owner' | 'other', { accountId: string; key: string }> = {} as never;

  async function call(method: string, path: string, options: { key?: string; body?: unknown; raw?: string; type?: string } = {}) {
    const headers: Record<string, string> = { 'API-KEY': options.key ?? accounts.owner.key };
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['Content-Type'] = options.type ?? 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
  }
  const balance = async (accountId: string) => (await metering.admin.summary(accountId)).balance;
  const createWatch = async (key = accounts.owner.key) => (await call('POST', '/api/retail/watches', { key, body: { asin: 'B08N5WRWNW' } })).body.data!.retailWatch!.id as string;

  beforeAll(async () => {
    redis = await startRedis();
    metering = await createMetering({ redisUrl: redis.url });
    for (const name of ['owner', 'other'] as const) {
      const { accountId } = await metering.admin.createAccount({ units: 10, plan: 'unlimited' });
      accounts[name] = { accountId, key: (await metering.admin.createKey(accountId)).key };
    }
    backend = await startWatchBackend({ serviceToken: TOKEN });
    // The core is never called here: its address refuses connections.
    const core = createCoreClient({ address: '127.0.0.1:1', serviceToken: TOKEN, watcherAddress: backend.address, deadlineMs: 5000 });
    server = createRestApp({ core, metering, corsOrigins: ['https://app.example'] }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await backend?.close();
    await metering?.close();
    await redis?.stop();
  });

  it('creates, reads, lists, updates and deletes a watch for the caller\'s account, free, each answer valid against the document', async () => {
    const before = await balance(accounts.owner.accountId);
    const created = await call('POST', '/api/retail/watches', {
      body: { asin: 'B08N5WRWNW', intervalSeconds: 900, label: 'kettle', conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9.5 }], webhook: { url: 'https://hooks.example.com/w' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.headers.get('x-units-charged')).toBe('0');
    const watch = created.body.data!.retailWatch!;
    expect(watch).toMatchObject({ asin: 'B08N5WRWNW', domain: 'US', intervalSeconds: 900, label: 'kettle', status: 'ACTIVE', conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9.5 }] });
    expect((watch.webhook as { secret: string }).secret).toMatch(/^whsec_/);
    expect(responses.check('/api/retail/watches', 200, created.body, 'post')).toEqual([]);
    const sent = backend.calls.at(-1)!;
    expect([sent.method, sent.accountId]).toEqual(['CreateWatch', accounts.owner.accountId]);
    expect(sent.request).toMatchObject({ asin: 'B08N5WRWNW', intervalSeconds: 900, conditions: [{ type: WatchConditionType.PRICE_AT_OR_BELOW, value: 9.5 }], webhook: { url: 'https://hooks.example.com/w' } });

    const id = watch.id as string;
    const got = await call('GET', `/api/retail/watches/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data!.retailWatch!.webhook).toEqual({ url: 'https://hooks.example.com/w' }); // the secret was shown once
    expect(responses.check('/api/retail/watches/{id}', 200, got.body)).toEqual([]);
    const listed = await call('GET', '/api/retail/watches?limit=10');
    expect((listed.body.data!.retailWatches!.watches as Array<{ id: string }>)[0]!.id).toBe(id);
    expect(responses.check('/api/retail/watches', 200, listed.body)).toEqual([]);

    const updated = await call('PATCH', `/api/retail/watches/${id}`, { body: { label: 'desk', conditions: [], status: 'PAUSED' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data!.retailWatch).toMatchObject({ label: 'desk', conditions: [], status: 'PAUSED', pausedReason: 'USER' });
    // An empty list given in the body replaces the conditions: the gateway sets replace_conditions.
    expect(backend.calls.at(-1)!.request).toMatchObject({ id, replaceConditions: true, conditions: [] });
    expect(responses.check('/api/retail/watches/{id}', 200, updated.body, 'patch')).toEqual([]);

    // A JSON Merge Patch media type is JSON too.
    const merged = await call('PATCH', `/api/retail/watches/${id}`, { body: { label: 'shelf' }, type: 'application/merge-patch+json' });
    expect([merged.status, merged.body.data?.retailWatch?.label]).toEqual([200, 'shelf']);

    const deleted = await call('DELETE', `/api/retail/watches/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { retailWatch: { id, deleted: true } } });
    expect(responses.check('/api/retail/watches/{id}', 200, deleted.body, 'delete')).toEqual([]);
    expect((await call('GET', `/api/retail/watches/${id}`)).status).toBe(404);
    expect(await balance(accounts.owner.accountId)).toBe(before);
  });

  it('answers another account\'s watch with 404 in the envelope on every route, never 403, and charges nothing', async () => {
    const id = await createWatch();
    backend.addDelivery(id);
    const other = accounts.other.key;
    const attempts = [
      await call('GET', `/api/retail/watches/${id}`, { key: other }),
      await call('PATCH', `/api/retail/watches/${id}`, { key: other, body: { label: 'mine now' } }),
      await call('DELETE', `/api/retail/watches/${id}`, { key: other }),
      await call('GET', `/api/retail/watches/${id}/deliveries`, { key: other }),
      await call('POST', `/api/retail/watches/${id}/deliveries/1/redeliver`, { key: other }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, errors: [{ code: 404, message: 'watch not found' }] });
      expect(res.headers.get('x-units-charged')).toBe('0');
    }
    expect(responses.check('/api/retail/watches/{id}', 404, attempts[0]!.body)).toEqual([]);
    expect(backend.calls.slice(-5).every((c) => c.accountId === accounts.other.accountId)).toBe(true);
    expect((await call('GET', `/api/retail/watches/${id}`)).status).toBe(200);
  });

  it('refuses bad bodies and path parameters with 400 (415 for non-JSON) naming where, before the watcher', async () => {
    const id = await createWatch();
    const calls = backend.calls.length;
    const cases: Array<[Awaited<ReturnType<typeof call>>, number, string[] | undefined, RegExp]> = [
      [await call('POST', '/api/retail/watches', { raw: 'asin=B08N5WRWNW', type: 'application/x-www-form-urlencoded' }), 415, ['body'], /must be JSON/],
      [await call('POST', '/api/retail/watches', { raw: '{"asin": "B08N5WRWNW"' }), 400, ['body'], /not valid JSON/],
      [await call('POST', '/api/retail/watches', { body: { asin: 'B08N5WRWNW', label: 'x'.repeat(70_000) } }), 413, ['body'], /exceeds the limit of 65536 bytes/],
      [await call('POST', '/api/retail/watches', { body: ['B08N5WRWNW'] }), 400, ['body'], /JSON object/],
      [await call('POST', '/api/retail/watches', { body: { asin: 'B08N5WRWNW', intervalSeconds: 60 } }), 400, ['body', 'intervalSeconds'], /intervalSeconds/],
      [await call('POST', '/api/retail/watches', { body: { asin: 'B08N5WRWNW', conditions: [{ type: 'SOON' }] } }), 400, ['body', 'conditions', '0', 'type'], /must be one of/],
      [await call('POST', '/api/retail/watches', { body: { asin: 'B08N5WRWNW', webhook: { url: 'ftp://plain.example' } } }), 400, ['body', 'webhook', 'url'], /webhook\.url/],
      [await call('POST', '/api/retail/watches?asin=B08N5WRWNW', { body: {} }), 400, ['query', 'asin'], /JSON body/],
      [await call('PATCH', '/api/retail/watches/not-a-watch-id', { body: { label: 'x' } }), 400, ['path', 'id'], /id/],
      [await call('GET', '/api/retail/watches/not-a-watch-id'), 400, ['path', 'id'], /id/],
      [await call('PATCH', `/api/retail/watches/${id}`, { body: { id, label: 'x' } }), 400, ['body', 'id'], /given in the path/],
      [await call('PATCH', `/api/retail/watches/${id}`, { body: { label: 'x', owner: 'me' } }), 400, ['body', 'owner'], /unknown parameter owner/],
      [await call('POST', '/api/retail/watches', { raw: '{"asin": "B08N5WRWNW", "__proto__": {"replaceConditions": true}}' }), 400, ['body', '__proto__'], /unknown parameter __proto__/],
      [await call('PATCH', `/api/retail/watches/${id}`, { body: { conditions: [{ type: 'ANY_CHANGE', value: 'ten' }] } }), 400, ['body', 'conditions', '0', 'value'], /must be a number/],
    ];
    for (const [res, status, path, message] of cases) {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.success).toBe(false);
      expect(res.body.errors).toEqual([{ code: status, message: expect.stringMatching(message), ...(path ? { path } : {}) }]);
    }
    expect(responses.check('/api/retail/watches', 400, cases[3]![0].body, 'post')).toEqual([]);
    expect(backend.calls.length).toBe(calls);
  });

  it('routes literal paths before parameters and answers a wrong method with 405 and Allow', async () => {
    backend.addEvent(accounts.owner.accountId, await createWatch());
    const events = await call('GET', '/api/retail/watches/events');
    expect(events.status).toBe(200);
    expect(backend.calls.at(-1)!.method).toBe('ListWatchEvents');
    expect(responses.check('/api/retail/watches/events', 200, events.body)).toEqual([]);
    const wrong = [
      [await call('POST', '/api/retail/watches/events'), 'GET'],
      [await call('PUT', '/api/retail/watches/0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e', { body: {} }), 'GET, PATCH, DELETE'],
      [await call('DELETE', '/api/retail/watches'), 'GET, POST'],
      [await call('GET', '/api/retail/watches/0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e/deliveries/1/redeliver'), 'POST'],
    ] as const;
    for (const [res, allow] of wrong) {
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body.success).toBe(false);
    }
    const head = await fetch(`${base}/api/retail/watches`, { method: 'HEAD', headers: { 'API-KEY': accounts.owner.key } });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'GET, POST']);
    expect((await fetch(`${base}/api/openapi.json`, { method: 'HEAD' })).status).toBe(200);
  });

  it('lists events and deliveries and redelivers one with a body-less POST', async () => {
    const id = await createWatch();
    const event = backend.addEvent(accounts.owner.accountId, id, 3);
    const events = await call('GET', `/api/retail/watches/events?watchId=${id}`);
    expect(events.body.data!.retailWatchEvents).toMatchObject({ events: [{ id: event.id, watchId: id, type: 'BACK_IN_STOCK' }], nextCursor: null });
    const delivery = backend.addDelivery(id, WebhookDeliveryStatus.DEAD);
    const listed = await call('GET', `/api/retail/watches/${id}/deliveries`);
    expect(listed.body.data!.retailWebhookDeliveries).toMatchObject({ deliveries: [{ id: delivery.id, status: 'DEAD' }] });
    expect(responses.check('/api/retail/watches/{watchId}/deliveries', 200, listed.body)).toEqual([]);
    const redelivered = await call('POST', `/api/retail/watches/${id}/deliveries/${delivery.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.data!.retailWebhookDelivery).toMatchObject({ id: delivery.id, status: 'PENDING' });
    expect(backend.calls.at(-1)!.request).toMatchObject({ watchId: id, deliveryId: delivery.id });
    expect(responses.check('/api/retail/watches/{watchId}/deliveries/{deliveryId}/redeliver', 200, redelivered.body, 'post')).toEqual([]);
    expect((await call('POST', `/api/retail/watches/${id}/deliveries/999/redeliver`)).body.errors).toEqual([{ code: 404, message: 'delivery not found' }]);
  });

  it('charges a history read exactly one unit, and none when it fails', async () => {
    backend.setHistory(1, 'B08N5WRWNW', [{ at: { seconds: 1_790_000_000n }, price: { value: 10, currency: 'USD', symbol: '$' }, isInStock: true }]);
    const before = await balance(accounts.owner.accountId);
    const read = await call('GET', '/api/retail/product/history?asin=B08N5WRWNW&maxPoints=10');
    expect(read.status).toBe(200);
    expect(read.headers.get('x-units-charged')).toBe('1');
    expect(read.body.data!.retailProductHistory).toMatchObject({ asin: 'B08N5WRWNW', domain: 'US', points: [{ at: '2026-09-21T14:13:20.000Z', isInStock: true }] });
    expect(responses.check('/api/retail/product/history', 200, read.body)).toEqual([]);
    expect(await balance(accounts.owner.accountId)).toBe(before - 1);

    const { WatchBackendError } = await import('../../../test/harness/watch-backend.js');
    backend.failNext('GetProductHistory', new WatchBackendError(ErrorReason.UPSTREAM_BLOCKED, 'the history store is unavailable'));
    const failed = await call('GET', '/api/retail/product/history?asin=B08N5WRWNW');
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.headers.get('x-units-charged')).toBe('0');
    const bad = await call('GET', '/api/retail/product/history?asin=short');
    expect([bad.status, bad.body.errors?.[0]?.path]).toEqual([400, ['query', 'asin']]);
    expect(await balance(accounts.owner.accountId)).toBe(before - 1);
  });

  it('counts free calls against the rate limit and charges them nothing, even with no units left', async () => {
    const limited = await createMetering({ redisUrl: redis.url, keyPrefix: 'tight:', plans: { tight: { ratePerSecond: 0.01, burst: 3 } } });
    const { accountId } = await limited.admin.createAccount({ units: 0, plan: 'tight' });
    const { key } = await limited.admin.createKey(accountId);
    const core = createCoreClient({ address: '127.0.0.1:1', serviceToken: TOKEN, watcherAddress: backend.address });
    const other = createRestApp({ core, metering: limited }).listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/retail/watches`;
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await fetch(url, { headers: { 'API-KEY': key } }));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(answers.map((r) => r.headers.get('x-units-charged'))).toEqual(['0', '0', '0', '0']);
      expect(answers[3]!.headers.get('retry-after')).not.toBeNull();
      expect(((await answers[3]!.json()) as Body).errors?.[0]?.code).toBe(429);
      expect((await limited.admin.summary(accountId)).balance).toBe(0);
      // History is metered: with no units it is refused before the watcher.
      const history = await fetch(`${url.replace('/watches', '/product/history')}?asin=B08N5WRWNW`, { headers: { 'API-KEY': key } });
      expect([429, 402]).toContain(history.status);
    } finally {
      other.closeAllConnections();
      other.close();
      await limited.close();
    }
  });

  it('answers 501 UNIMPLEMENTED in the envelope without WATCHER_ADDRESS, charging nothing (watch and job operations)', async () => {
    const core = createCoreClient({ address: '127.0.0.1:1', serviceToken: TOKEN });
    const bare = createRestApp({ core, metering }).listen(0, '127.0.0.1');
    await new Promise((resolve) => bare.once('listening', resolve));
    try {
      const at = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
      const before = await balance(accounts.owner.accountId);
      const headers = { 'API-KEY': accounts.owner.key, 'Content-Type': 'application/json' };
      const jobCalls = [['POST', '/api/retail/jobs', '{"items":[{"product":{"asin":"B08N5WRWNW"}}]}'], ['GET', '/api/retail/jobs/0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e', undefined]] as const;
      for (const [method, path, body] of [['POST', '/api/retail/watches', '{"asin":"B08N5WRWNW"}'], ['GET', '/api/retail/product/history?asin=B08N5WRWNW', undefined], ...jobCalls] as const) {
        const res = await fetch(`${at}${path}`, { method, headers, ...(body ? { body } : {}) });
        expect(res.status).toBe(501);
        expect(res.headers.get('x-units-charged')).toBe('0');
        expect(await res.json()).toEqual({ success: false, errors: [{ code: 501, message: expect.stringContaining('WATCHER_ADDRESS') }] });
      }
      expect(await balance(accounts.owner.accountId)).toBe(before);
    } finally {
      bare.closeAllConnections();
      bare.close();
    }
  });

  it('lets configured browser origins preflight the watch methods', async () => {
    const preflight = await fetch(`${base}/api/retail/watches/0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'api-key, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Content-Type');
  });
});
if (missing) console.info(`[rest watches] ${missing}`);
