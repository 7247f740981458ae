/**
 * The watch tools over real HTTP with the MCP SDK's own Client, the real metering library (on a
 * real redis-server: a free call runs the same admit and settle scripts as a metered one) and the watcher's contract double (test/harness/watch-backend.ts) over real gRPC: what
 * the gateway sends the watcher (the key's account, the request fields), what it charges (nothing
 * for managing watches, one unit for history, none on error) and how errors read.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { Domain, ErrorReason, PriceSchema, WatchConditionType, WatchStatus } from '@retail/contract';
import { API_REGISTRY, WATCH_REGISTRY, createCoreClient } from '@retail/gateway-shared';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisMissing, startRedis } from '../../../test/harness/redis.js';
import { type StubCore, startStubCore } from '../../../test/harness/stub-core.js';
import { type WatchBackend, WatchBackendError, startWatchBackend } from '../../../test/harness/watch-backend.js';
import { TOOLS } from './tools.js';
import { type ClientStep, type StepOutcome, runSdkClient } from '../../../test/harness/mcp-sdk-client.js';
import { createMcpApp } from './app.js';

const TOKEN = 'test-service-token';
const ASIN = 'B08N5WRWNW';

let core: StubCore;
let backend: WatchBackend;
let redis: RedisServer;
let metering: MeteringInstance;
const servers: Server[] = [];
/** The gateway with WATCHER_ADDRESS, and one deployed without it. */
let url: string;
let urlWithoutWatcher: string;

interface Caller {
  readonly key: string;
  readonly accountId: string;
}

async function newCaller(units: number, plan = 'unlimited'): Promise<Caller> {
  const { accountId } = await metering.admin.createAccount({ units, plan });
  return { key: (await metering.admin.createKey(accountId)).key, accountId };
}

const balanceOf = async (caller: Caller) => (await metering.admin.summary(caller.accountId)).balance;

/** Runs the SDK Client (tools/list first, so the Client checks every structuredContent against its outputSchema). */
async function sdk(caller: Caller, steps: ClientStep[], at = url): Promise<any[]> {
  const [init, list, ...rest] = await runSdkClient(at, { 'api-key': caller.key }, [{ op: 'listTools' }, ...steps]);
  expect(init).toMatchObject({ ok: true });
  expect(list).toMatchObject({ ok: true });
  return rest.map((outcome: StepOutcome) => {
    expect(outcome).toMatchObject({ ok: true });
    return outcome.ok ? outcome.result : undefined;
  });
}

const call = (name: string, args: Record<string, unknown> = {}): ClientStep => ({ op: 'callTool', name, arguments: args });

async function rawCall(caller: Caller, name: string, args: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'api-key': caller.key },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

async function listen(watcherAddress?: string): Promise<string> {
  const client = createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000, ...(watcherAddress ? { watcherAddress } : {}) });
  const server = createMcpApp({ core: client, metering }).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
}

const missing = redisMissing();
if (missing) console.warn(missing);

beforeAll(async () => {
  if (missing) return;
  core = await startStubCore({ serviceToken: TOKEN });
  backend = await startWatchBackend({ serviceToken: TOKEN });
  // `trickle`: a burst of two calls and almost no refill, so a third call within the test is refused.
  redis = await startRedis();
  metering = await createMetering({ redisUrl: redis.url, plans: { trickle: { ratePerSecond: 0.001, burst: 2 } } });
  // Every toolset, with output schemas: the SDK Client then validates each answer against its tool's.
  url = `${await listen(backend.address)}?toolsets=all&outputSchemas=true`;
  urlWithoutWatcher = await listen();
});

afterAll(async () => {
  for (const server of servers) server.close();
  await metering?.close();
  await redis?.stop();
  await backend?.close();
  await core?.close();
});

describe.skipIf(missing)('MCP watch tools', () => {
  it('are listed through the SDK Client with their hints, free', async () => {
    const caller = await newCaller(5);
    const [init, list] = await runSdkClient(url, { 'api-key': caller.key }, [{ op: 'listTools' }]);
    expect(init).toMatchObject({ ok: true });
    const tools = (list as { ok: true; result: any }).result.tools as any[];
    expect(tools).toHaveLength(API_REGISTRY.length + 2); // and retail_batch, retail_account_usage
    const hints = Object.fromEntries(WATCH_REGISTRY.map((op) => {
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tools.find((t) => t.name === op.mcpTool).annotations;
      return [op.mcpTool, [readOnlyHint, destructiveHint, idempotentHint, openWorldHint]];
    }));
    expect(hints).toEqual({
      retail_watch_create: [false, false, false, false],
      retail_watch_list: [true, false, true, false],
      retail_watch_get: [true, false, true, false],
      retail_watch_update: [false, true, true, false],
      retail_watch_delete: [false, true, true, false],
      retail_product_history: [true, false, true, true],
      retail_watch_events: [true, false, true, false],
      retail_webhook_deliveries: [true, false, true, false],
      retail_webhook_redeliver: [false, false, false, false],
      retail_webhook_test: [false, false, false, false],
    });
    expect(await balanceOf(caller)).toBe(5);
  });

  it('create, list, get, update and delete a watch for the key\'s account, charging nothing', async () => {
    const caller = await newCaller(5);
    const from = backend.calls.length;
    const [created] = await sdk(caller, [call('retail_watch_create', {
      asin: ASIN, intervalSeconds: 900, label: 'desk',
      conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 19.99 }, { type: 'BACK_IN_STOCK' }],
      webhook: { url: 'https://hooks.example.com/retail' },
    })]);
    expect(created.isError).toBeFalsy();
    const watch = created.structuredContent.data.retailWatch;
    expect(watch).toMatchObject({
      asin: ASIN, domain: 'US', intervalSeconds: 900, label: 'desk', status: 'ACTIVE',
      conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 19.99 }, { type: 'BACK_IN_STOCK' }],
      webhook: { url: 'https://hooks.example.com/retail', secret: expect.stringMatching(/^whsec_/) },
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // A summary line, then the same compact JSON as structuredContent.
    expect(created.content).toEqual([{ type: 'text', text: expect.stringMatching(/^retailWatch: compact record/) }]);
    expect(created.content[0].text.split('\n')[1]).toBe(JSON.stringify(created.structuredContent));
    expect(created._meta).toMatchObject({ unitsCharged: 0, unitsRemaining: 5 });
    expect(backend.calls[from]).toMatchObject({
      method: 'CreateWatch',
      accountId: caller.accountId,
      request: {
        asin: ASIN, intervalSeconds: 900, label: 'desk',
        conditions: [{ type: WatchConditionType.PRICE_AT_OR_BELOW, value: 19.99 }, { type: WatchConditionType.BACK_IN_STOCK }],
        webhook: { url: 'https://hooks.example.com/retail' },
      },
    });

    const [listed, got, updated, deleted, gone] = await sdk(caller, [
      call('retail_watch_list'),
      call('retail_watch_get', { id: watch.id }),
      call('retail_watch_update', { id: watch.id, conditions: [], status: 'PAUSED' }),
      call('retail_watch_delete', { id: watch.id }),
      call('retail_watch_get', { id: watch.id }),
    ]);
    expect(listed.structuredContent.data.retailWatches).toMatchObject({ watches: [{ id: watch.id }] });
    // No next page: the null cursor is left out, as every empty value of a compact record.
    expect(listed.structuredContent.data.retailWatches).not.toHaveProperty('nextCursor');
    expect(got.structuredContent.data.retailWatch).toMatchObject({ id: watch.id, webhook: { url: 'https://hooks.example.com/retail' } });
    // The secret is shown once, in the answer that created the webhook.
    expect(got.structuredContent.data.retailWatch.webhook.secret).toBeUndefined();
    expect(updated.structuredContent.data.retailWatch).toMatchObject({ id: watch.id, status: 'PAUSED' });
    expect(updated.structuredContent.data.retailWatch).not.toHaveProperty('conditions'); // replaced by none: the empty list is left out
    expect(deleted.structuredContent).toEqual({ data: { retailWatch: { id: watch.id, deleted: true } } });
    expect(gone).toMatchObject({ isError: true, structuredContent: { success: false, errors: [{ code: 404 }] } });
    for (const result of [listed, got, updated, deleted, gone]) expect(result._meta.unitsCharged).toBe(0);
    expect(await balanceOf(caller)).toBe(5);

    const update = backend.calls.find((c) => c.method === 'UpdateWatch' && c.accountId === caller.accountId);
    // Giving conditions (even none) means replacing them: the gateway sets the flag the proto asks for.
    expect(update?.request).toMatchObject({ id: watch.id, conditions: [], replaceConditions: true, status: WatchStatus.PAUSED });
    expect(backend.calls.slice(from).every((c) => c.accountId === caller.accountId)).toBe(true);
  });

  it('answers another account\'s watch as not found, with the envelope\'s message', async () => {
    const owner = await newCaller(5);
    const other = await newCaller(5);
    const [created] = await sdk(owner, [call('retail_watch_create', { asin: ASIN })]);
    const id = created.structuredContent.data.retailWatch.id as string;
    const [got, removed] = await sdk(other, [call('retail_watch_get', { id }), call('retail_watch_delete', { id })]);
    for (const result of [got, removed]) {
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({ success: false, errors: [{ code: 404, message: 'watch not found' }] });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    }
    expect(backend.watches.get(id)?.accountId).toBe(owner.accountId);
  });

  it('read events and deliveries and queue a redelivery by path arguments, charging nothing', async () => {
    const caller = await newCaller(5);
    const [created] = await sdk(caller, [call('retail_watch_create', { asin: ASIN, webhook: { url: 'https://hooks.example.com/r' } })]);
    const watchId = created.structuredContent.data.retailWatch.id as string;
    const event = backend.addEvent(caller.accountId, watchId);
    const delivery = backend.addDelivery(watchId);
    const [events, deliveries, redelivered] = await sdk(caller, [
      call('retail_watch_events', { watchId, limit: 10 }),
      call('retail_webhook_deliveries', { watchId }),
      call('retail_webhook_redeliver', { watchId, deliveryId: delivery.id }),
    ]);
    expect(events.structuredContent.data.retailWatchEvents).toMatchObject({ events: [{ id: event.id, watchId, type: 'PRICE_AT_OR_BELOW' }] });
    expect(deliveries.structuredContent.data.retailWebhookDeliveries).toMatchObject({ deliveries: [{ id: delivery.id, status: 'DEAD' }] });
    expect(redelivered.structuredContent.data.retailWebhookDelivery).toMatchObject({ id: delivery.id, status: 'PENDING' });
    expect(backend.calls.at(-1)).toMatchObject({ method: 'RedeliverWebhook', accountId: caller.accountId, request: { watchId, deliveryId: delivery.id } });
    for (const result of [events, deliveries, redelivered]) expect(result._meta.unitsCharged).toBe(0);
    expect(await balanceOf(caller)).toBe(5);
  });

  it('charges one unit for product history and none when it fails; a model gets at most 10 points unless it asks for more', async () => {
    const caller = await newCaller(6);
    backend.setHistory(Domain.US, ASIN, [{ isInStock: true, price: create(PriceSchema, { value: 21.5, currency: 'USD', symbol: '$' }) }]);
    const [history, more] = await sdk(caller, [call('retail_product_history', { asin: ASIN }), call('retail_product_history', { asin: ASIN, maxPoints: 50 })]);
    expect(history.structuredContent.data.retailProductHistory).toMatchObject({ asin: ASIN, domain: 'US', points: [{ isInStock: true, price: { value: 21.5 } }] });
    expect(history._meta).toMatchObject({ unitsCharged: 1, unitsRemaining: 5 });
    expect(backend.calls.at(-2)).toMatchObject({ method: 'GetProductHistory', accountId: caller.accountId, request: { asin: ASIN, maxPoints: 10 } });
    expect(backend.calls.at(-1)).toMatchObject({ method: 'GetProductHistory', request: { maxPoints: 50 } });
    expect(more._meta).toMatchObject({ unitsCharged: 1, unitsRemaining: 4 });
    const tool = TOOLS.find((t) => t.name === 'retail_product_history')!;
    expect((tool.inputSchema.properties as Record<string, any>).maxPoints).toMatchObject({ default: 10, minimum: 2 });

    backend.failNext('GetProductHistory', new WatchBackendError(ErrorReason.INTERNAL, 'history store unavailable'));
    const [failed] = await sdk(caller, [call('retail_product_history', { asin: ASIN })]);
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ success: false, errors: [{ code: 500 }] });
    expect(failed._meta.unitsCharged).toBe(0);
    expect(await balanceOf(caller)).toBe(4);
  });

  it('refuses bad arguments with the envelope pointing at the nested argument, without calling the watcher', async () => {
    const caller = await newCaller(5);
    const from = backend.calls.length;
    const [badType, extraField, badId] = await sdk(caller, [
      call('retail_watch_create', { asin: ASIN, conditions: [{ type: 'BACK_IN_STOCK' }, { type: 'SOON' }] }),
      call('retail_watch_create', { asin: ASIN, webhook: { url: 'https://hooks.example.com/x', secret: 'mine' } }),
      call('retail_watch_get', { id: 'not-a-watch-id' }),
    ]);
    expect(badType.structuredContent).toMatchObject({ success: false, errors: [{ code: 400, message: expect.stringMatching(/^conditions\[1\]\.type must be one of/), path: ['conditions', '1', 'type'] }] });
    expect(extraField.structuredContent).toEqual({ success: false, errors: [{ code: 400, message: 'unknown parameter webhook.secret', path: ['webhook', 'secret'] }] });
    expect(badId.structuredContent).toMatchObject({ success: false, errors: [{ code: 400, path: ['id'] }] });
    for (const result of [badType, extraField, badId]) expect([result.isError, result._meta.unitsCharged]).toEqual([true, 0]);
    expect(backend.calls.length).toBe(from);
  });

  it('counts free calls against the rate limit', async () => {
    const caller = await newCaller(5, 'trickle');
    const first = await rawCall(caller, 'retail_watch_list', {});
    const second = await rawCall(caller, 'retail_watch_list', {});
    const third = await rawCall(caller, 'retail_watch_list', {});
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      // No watches: the empty list is left out, as every empty value of a compact record.
      expect(res.json.result).toMatchObject({ structuredContent: { data: { retailWatches: {} } } });
      expect(res.json.result.isError).toBeUndefined();
      expect(res.headers.get('x-units-charged')).toBe('0');
    }
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ error: { code: -32029, data: { success: false, errors: [{ code: 429 }] } } });
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await balanceOf(caller)).toBe(5);
  });

  it('says a deployment without the watcher does not serve watches, charging nothing', async () => {
    const caller = await newCaller(5);
    const [listed, history] = await sdk(caller, [call('retail_watch_list'), call('retail_product_history', { asin: ASIN })], urlWithoutWatcher);
    for (const result of [listed, history]) {
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({ success: false, errors: [{ code: 501, message: expect.stringMatching(/WATCHER_ADDRESS/) }] });
      expect(result._meta.unitsCharged).toBe(0);
    }
    expect(await balanceOf(caller)).toBe(5);
  });
});
