/**
 * The account's usage history on every interface (GET /api/account/usage, GraphQL `retailUsage`, the
 * MCP `retail_account_usage` tool) over a real redis-server (the settle script's hand-off stream) and
 * a real PostgreSQL record: calls made through REST, GraphQL and MCP are what the rows add up to, the
 * same as the units charged; grouping, hours and CSV; bad input is a 400 naming the parameter and
 * never charged; another account's usage is never visible; each read takes one token of the rate limit
 * (a plan of 3 with almost no refill: a 429 with Retry-After and RateLimit headers after the burst on
 * every interface, before the parameters' 400s, and a lookup misses the token a read took).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseCsv } from 'csv-parse/sync';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createCoreClient } from '@retail/gateway-shared';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { createGraphqlGateway } from '../../../gateways/graphql/src/gateway.js';
import { createMcpGateway } from '../../../gateways/mcp/src/gateway.js';
import { buildOpenApi } from '../../../gateways/rest/src/openapi.js';
import { createRestGateway } from '../../../gateways/rest/src/router.js';
import { createResponseValidator } from '../../contract/openapi-validator.js';
import { runSdkClient } from '../../harness/mcp-sdk-client.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import { type StubCore, startStubCore } from '../../harness/stub-core.js';

const TOKEN = 'account-usage-service-token';
const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

/** A burst of 3 and one token back every 100 s: a test's reads never see a refill. */
const TRICKLE = 'trickle';

interface Row { period: string; keyId?: string; operation?: string; interface?: string; calls: number; units: number }
type Totals = { calls: number; units: number };

describe.skipIf(missing !== null)('the account usage history', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let db: Database;
  let core: StubCore;
  let metering: MeteringInstance;
  let server: Server;
  let base = '';
  const keys: Record<'a1' | 'a2' | 'b', { key: string; keyId: string }> = {} as never;
  /** Units the answers said they charged (X-Units-Charged), per account. */
  const charged = { a: 0, b: 0 };

  const get = (path: string, key?: string) => fetch(`${base}${path}`, { headers: key ? { 'API-KEY': key } : {} });
  const usage = async (query: string, key = keys.a1.key) => {
    const res = await get(`/api/account/usage${query}`, key);
    return { res, body: (await res.json()) as { data: { retailUsage: { rows: Row[] } } } & { success?: false; errors?: { code: number; message: string; path?: string[] }[] } };
  };
  const sum = (rows: readonly Row[]): Totals => rows.reduce((t, r) => ({ calls: t.calls + r.calls, units: t.units + r.units }), { calls: 0, units: 0 });
  const count = (res: Response, account: 'a' | 'b') => {
    charged[account] += Number(res.headers.get('x-units-charged') ?? 0);
    return res;
  };
  const graphql = (query: string, key = keys.a1.key) => fetch(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'api-key': key }, body: JSON.stringify({ query }) });
  const mcpCall = (name: string, args: Record<string, unknown>, key: string) => fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'api-key': key },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });

  /** A new account on the trickle plan (its own bucket) and its key. */
  const trickleAccount = async () => {
    const { accountId } = await metering.admin.createAccount({ units: 100, plan: TRICKLE });
    return { accountId, key: (await metering.admin.createKey(accountId)).key };
  };
  const remainingOf = (res: Response) => res.headers.get('ratelimit');

  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('usage_test');
    db = createPostgresDatabase({ connectionString: test.url });
    core = await startStubCore({
      serviceToken: TOKEN,
      handlers: {
        GetProduct: (r) => ({ retailProduct: { asin: (r as unknown as { asin: string }).asin, title: 'a product' } }),
        GetSeller: (r) => ({ retailSeller: { sellerId: (r as unknown as { sellerId: string }).sellerId, name: 'a seller' } }),
      },
    });
    metering = await createMetering({ redisUrl: redis.url, record: db, log: () => undefined, plans: { [TRICKLE]: { ratePerSecond: 0.01, burst: 3 } } });
    const a = await metering.admin.createAccount({ units: 1_000, plan: 'unlimited' });
    const b = await metering.admin.createAccount({ units: 1_000, plan: 'unlimited' });
    for (const [name, accountId] of [['a1', a.accountId], ['a2', a.accountId], ['b', b.accountId]] as const) {
      const created = await metering.admin.createKey(accountId, { label: name });
      keys[name] = { key: created.key, keyId: created.info.keyId };
    }
    const client = createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 10_000 });
    const app = express();
    app.set('query parser', false);
    app.use(await createGraphqlGateway({ core: client, metering }));
    app.use(createMcpGateway({ core: client, metering }));
    app.use(createRestGateway({ core: client, metering }));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // Account A: 3 products and 2 sellers over REST with key a1, 2 products over GraphQL with a2
    // (one request, two operations), 1 product over MCP with a1, and one refused call (free).
    for (let i = 0; i < 3; i++) expect((count(await get(`/api/retail/product?asin=B00000000${i}`, keys.a1.key), 'a')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((count(await get(`/api/retail/seller?sellerId=SELLER${i}00`, keys.a1.key), 'a')).status).toBe(200);
    expect((count(await graphql('{ p: retailProduct(asin: "B000000010") { title } q: retailProduct(asin: "B000000011") { title } }', keys.a2.key), 'a')).status).toBe(200);
    expect((count(await mcpCall('retail_product', { asin: 'B000000020' }, keys.a1.key), 'a')).status).toBe(200);
    expect((count(await get('/api/retail/product?asin=nope', keys.a1.key), 'a')).status).toBe(400);
    // Account B: one product.
    expect((count(await get('/api/retail/product?asin=B000000030', keys.b.key), 'b')).status).toBe(200);
    // The hand-off writes the record in batches: wait until it holds every charged call.
    const settled = async (key: string, units: number) => expect(sum((await usage('', key)).body.data.retailUsage.rows).units).toBe(units);
    await vi.waitFor(() => settled(keys.a1.key, 8), { timeout: 20_000, interval: 200 });
    await vi.waitFor(() => settled(keys.b.key, 1), { timeout: 20_000, interval: 200 });
  });

  afterAll(async () => {
    await new Promise((done) => server?.close(done));
    await metering?.close();
    await db?.close();
    await test?.drop();
    await core?.close();
    await redis?.stop();
  });

  it('adds up to the charged requests made and the units they charged, one row per day with only period, calls and units', async () => {
    const { res, body } = await usage('');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const rows = body.data.retailUsage.rows;
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!).sort()).toEqual(['calls', 'period', 'units']);
    expect(rows[0]!.period).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    // 7 charged requests (the GraphQL one ran two operations: 2 units); the refused call is not in it.
    expect(sum(rows)).toEqual({ calls: 7, units: charged.a });
    expect(charged.a).toBe(8);
    // Free: reading it charged nothing (as a free call says: X-Units-Charged 0) and the balance is what the lookups left.
    expect(res.headers.get('x-units-charged')).toBe('0');
    const account = (await (await get('/api/account', keys.a1.key)).json()) as { data: { balance: number } };
    expect(account.data.balance).toBe(1_000 - charged.a);
  });

  it('splits by key, operation and interface, with only the grouped columns', async () => {
    const { body } = await usage('?groupBy=key,operation,interface');
    const rows = body.data.retailUsage.rows.map(({ period: _p, ...rest }) => rest);
    expect(rows).toEqual(expect.arrayContaining([
      { keyId: keys.a1.keyId, operation: 'GetProduct', interface: 'rest', calls: 3, units: 3 },
      { keyId: keys.a1.keyId, operation: 'GetSeller', interface: 'rest', calls: 2, units: 2 },
      { keyId: keys.a2.keyId, operation: 'GetProduct', interface: 'graphql', calls: 2, units: 2 },
      { keyId: keys.a1.keyId, operation: 'GetProduct', interface: 'mcp', calls: 1, units: 1 },
    ]));
    expect(rows).toHaveLength(4);
    // The answers are what the OpenAPI document says, grouped or not, and so are its refusals.
    const openapi = createResponseValidator(buildOpenApi());
    expect(openapi.check('/api/account/usage', 200, body)).toEqual([]);
    expect(openapi.check('/api/account/usage', 200, (await usage('')).body)).toEqual([]);
    expect(openapi.check('/api/account/usage', 400, (await usage('?groupBy=nope')).body)).toEqual([]);
    // Repeated groupBy is the same as a comma list; the order of the groups does not matter.
    const byKey = (await usage('?groupBy=key')).body.data.retailUsage.rows;
    expect(byKey.map((r) => Object.keys(r).sort())).toEqual([['calls', 'keyId', 'period', 'units'], ['calls', 'keyId', 'period', 'units']]);
    // Not split by operation, a request is one call whatever it ran: a2's GraphQL request ran two.
    expect(Object.fromEntries(byKey.map((r) => [r.keyId, [r.calls, r.units]]))).toEqual({ [keys.a1.keyId]: [6, 6], [keys.a2.keyId]: [1, 2] });
    expect((await usage('?groupBy=interface&groupBy=operation')).body).toEqual((await usage('?groupBy=operation,interface')).body);
  });

  it('answers hours on the hour, the same totals', async () => {
    const { body } = await usage(`?granularity=hour&from=${new Date(Date.now() - 86_400_000).toISOString()}`);
    const rows = body.data.retailUsage.rows;
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const row of rows) expect(row.period).toMatch(/T\d{2}:00:00\.000Z$/);
    expect(sum(rows)).toEqual({ calls: 7, units: 8 });
  });

  it('answers CSV (RFC 4180, header line) with the same rows', async () => {
    const res = await get('/api/account/usage?groupBy=key,operation&format=csv', keys.a1.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe('period,keyId,operation,calls,units');
    const records = parseCsv<Record<string, string>>(text, { columns: true });
    const json = (await usage('?groupBy=key,operation')).body.data.retailUsage.rows;
    expect(records).toEqual(json.map((r) => ({ period: r.period, keyId: r.keyId, operation: r.operation, calls: String(r.calls), units: String(r.units) })));
  });

  it('never shows another account\'s usage', async () => {
    const { body } = await usage('?groupBy=key,interface', keys.b.key);
    expect(body.data.retailUsage.rows.map(({ period: _p, ...rest }) => rest)).toEqual([{ keyId: keys.b.keyId, interface: 'rest', calls: 1, units: 1 }]);
    expect(JSON.stringify((await usage('?groupBy=key')).body)).not.toContain(keys.b.keyId);
  });

  it('refuses bad input with a 400 naming the parameter, never charged, and a missing key with 401', async () => {
    const before = ((await (await get('/api/account', keys.a1.key)).json()) as { data: { balance: number } }).data.balance;
    const cases: [string, string][] = [
      ['?from=yesterday', 'from'],
      ['?to=2026-02-30', 'to'],
      ['?from=2026-03-01&to=2026-02-01', 'to'],
      ['?granularity=hour&from=2026-01-01&to=2026-03-01', 'from'],
      ['?from=2024-01-01&to=2026-01-01', 'from'],
      ['?granularity=week', 'granularity'],
      ['?groupBy=key,account', 'groupBy'],
      ['?format=xml', 'format'],
      ['?accountId=x', 'accountId'],
      ['?from=2026-01-01&from=2026-01-02', 'from'],
    ];
    for (const [query, parameter] of cases) {
      const { res, body } = await usage(query);
      expect(res.status, query).toBe(400);
      expect(body.success, query).toBe(false);
      expect(body.errors?.[0]?.path, query).toEqual(['query', parameter]);
      expect(res.headers.get('x-units-charged') ?? '0', query).toBe('0');
    }
    const after = ((await (await get('/api/account', keys.a1.key)).json()) as { data: { balance: number } }).data.balance;
    expect(after).toBe(before);
    expect((await usage('', '')).res.status).toBe(401);
    expect((await usage('', 'rk_live_notakey')).res.status).toBe(401);
  });

  it('is the GraphQL field retailUsage, with the same rows and the same refusals', async () => {
    const res = await graphql('{ retailUsage(groupBy: [key, operation, interface]) { rows { period keyId operation interface calls units } } }');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-units-charged')).toBe('0');
    const body = (await res.json()) as { data: { retailUsage: { rows: Row[] } } };
    expect(body.data.retailUsage.rows).toEqual((await usage('?groupBy=key,operation,interface')).body.data.retailUsage.rows);
    // Ungrouped columns are null; an unknown granularity is refused by the schema, a bad date by the shared check.
    const plain = (await (await graphql('{ retailUsage { rows { period keyId calls units } } }')).json()) as { data: { retailUsage: { rows: Row[] } } };
    expect(plain.data.retailUsage.rows.map((r) => r.keyId)).toEqual([null]);
    expect((await graphql('{ retailUsage(granularity: week) { rows { calls } } }')).status).toBe(400);
    const bad = (await (await graphql('{ retailUsage(from: "soon") { rows { calls } } }')).json()) as { errors: { code: number; extensions: { argumentPath: string[] } }[] };
    expect(bad.errors[0]).toMatchObject({ code: 400, extensions: { argumentPath: ['from'] } });
    // Free, but each read is a query of the record: aliases count against the request's bound of 10 operations.
    const aliases = Array.from({ length: 11 }, (_, i) => `u${i}: retailUsage { rows { calls } }`).join(' ');
    expect((await graphql(`{ ${aliases} }`)).status).toBe(400);
    const other = (await (await graphql('{ retailUsage(groupBy: [key]) { rows { keyId calls } } }', keys.b.key)).json()) as { data: { retailUsage: { rows: Row[] } } };
    expect(other.data.retailUsage.rows).toEqual([{ keyId: keys.b.keyId, calls: 1 }]);
  });

  it('is the MCP tool retail_account_usage (SDK client), listed in the account toolset only', async () => {
    const [, call, badCall] = await runSdkClient(`${base}/api/mcp`, { 'api-key': keys.a1.key }, [
      { op: 'callTool', name: 'retail_account_usage', arguments: { groupBy: ['operation'] } },
      { op: 'callTool', name: 'retail_account_usage', arguments: { granularity: 'week' } },
    ]);
    expect(call).toMatchObject({ ok: true });
    const result = (call as { result: { structuredContent: unknown; isError?: boolean } }).result;
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual((await usage('?groupBy=operation')).body);
    expect((badCall as { result: { isError: boolean; structuredContent: { errors: { path: string[] }[] } } }).result).toMatchObject({ isError: true, structuredContent: { errors: [{ code: 400, path: ['granularity'] }] } });
    const [, defaults] = await runSdkClient(`${base}/api/mcp`, { 'api-key': keys.a1.key }, [{ op: 'listTools' }]);
    expect(((defaults as { result: { tools: { name: string }[] } }).result.tools).map((t) => t.name)).not.toContain('retail_account_usage');
    const [, account] = await runSdkClient(`${base}/api/mcp?toolsets=account`, { 'api-key': keys.a1.key }, [{ op: 'listTools' }]);
    expect(((account as { result: { tools: { name: string }[] } }).result.tools).map((t) => t.name)).toEqual(['retail_account_usage']);
    const balance = ((await (await get('/api/account', keys.a1.key)).json()) as { data: { balance: number } }).data.balance;
    expect(balance).toBe(1_000 - charged.a);
  });
  it('takes one rate-limit token per REST read: RateLimit headers on every answer, 429 with Retry-After after the burst, before the parameters\' 400s', async () => {
    const { accountId, key } = await trickleAccount();
    const openapi = createResponseValidator(buildOpenApi());
    for (const left of [2, 1, 0]) {
      const { res, body } = await usage('', key);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe(`"${TRICKLE}";q=3;w=300`);
      expect(remainingOf(res)).toMatch(new RegExp(`^"${TRICKLE}";r=${left};t=\\d+$`));
      expect(res.headers.get('x-units-charged')).toBe('0');
      expect(openapi.check('/api/account/usage', 200, body)).toEqual([]);
    }
    // The bucket is empty: a read and a malformed read are both 429 (the rate limit comes before the 400).
    for (const query of ['', '?granularity=week']) {
      const { res, body } = await usage(query, key);
      expect(res.status, query).toBe(429);
      expect(Number(res.headers.get('retry-after')), query).toBeGreaterThanOrEqual(90); // one token in 100 s
      expect(remainingOf(res), query).toMatch(new RegExp(`^"${TRICKLE}";r=0;t=\\d+$`));
      expect(res.headers.get('x-units-charged'), query).toBe('0');
      expect(body).toMatchObject({ success: false, errors: [{ code: 429, message: expect.stringMatching(/^rate limit of the plan exceeded; retry after \d+ s$/) }] });
      expect(openapi.check('/api/account/usage', 429, body), query).toEqual([]);
    }
    // A read is free of units: the balance is untouched. A disabled account is 403 before the parameters too.
    expect(((await (await get('/api/account', key)).json()) as { data: { balance: number } }).data.balance).toBe(100);
    await metering.admin.setDisabled(accountId, true);
    expect((await usage('?granularity=week', key)).res.status).toBe(403);
    expect((await usage('?granularity=week', 'rk_live_notakey')).res.status).toBe(401);
  });

  it('shares the bucket with lookups: a lookup misses the token a usage read took', async () => {
    const { key } = await trickleAccount();
    expect((await get('/api/retail/product?asin=B000000040', key)).status).toBe(200);
    expect((await get('/api/retail/product?asin=B000000041', key)).status).toBe(200);
    expect((await usage('', key)).res.status).toBe(200); // the third token
    const lookup = await get('/api/retail/product?asin=B000000042', key);
    expect(lookup.status).toBe(429);
    expect(lookup.headers.get('retry-after')).not.toBeNull();
    expect(lookup.headers.get('x-units-charged')).toBe('0');
  });

  it('takes one token per GraphQL request of retailUsage (aliases included), 429 after the burst before the field\'s 400', async () => {
    const { key } = await trickleAccount();
    const two = await graphql('{ a: retailUsage { rows { calls } } b: retailUsage(granularity: hour) { rows { calls } } }', key);
    expect(two.status).toBe(200);
    expect(remainingOf(two)).toMatch(new RegExp(`^"${TRICKLE}";r=2;t=\\d+$`)); // one request, one token
    expect(two.headers.get('x-units-charged')).toBe('0');
    for (const left of [1, 0]) expect(remainingOf(await graphql('{ retailUsage { rows { calls } } }', key))).toMatch(new RegExp(`;r=${left};`));
    for (const query of ['{ retailUsage { rows { calls } } }', '{ retailUsage(from: "soon") { rows { calls } } }']) {
      const res = await graphql(query, key);
      expect(res.status, query).toBe(429);
      expect(Number(res.headers.get('retry-after')), query).toBeGreaterThanOrEqual(90);
      expect(remainingOf(res), query).toMatch(new RegExp(`^"${TRICKLE}";r=0;t=\\d+$`));
      const body = (await res.json()) as { data?: unknown; errors: { code: number; message: string }[] };
      expect(body.data, query).toBeUndefined();
      expect(body.errors[0], query).toMatchObject({ code: 429, message: expect.stringMatching(/^rate limit of the plan exceeded/) });
    }
    // Introspection stays a peek: no token, no 429 even on an empty bucket.
    expect((await graphql('{ __typename }', key)).status).toBe(200);
  });

  it('takes one token per MCP retail_account_usage call (SDK client): 429 after the burst, before the arguments\' 400', async () => {
    const { key } = await trickleAccount();
    const steps = Array.from({ length: 4 }, () => ({ op: 'callTool' as const, name: 'retail_account_usage', arguments: {} }));
    // initialize and notifications/initialized are free calls (a peek): the three tokens go to the three calls.
    const [connected, ...calls] = await runSdkClient(`${base}/api/mcp`, { 'api-key': key }, steps);
    expect(connected).toMatchObject({ ok: true });
    for (const call of calls.slice(0, 3)) expect(call).toMatchObject({ ok: true, result: { _meta: { unitsCharged: 0 } } });
    expect(calls[3]).toMatchObject({ ok: false, error: expect.stringMatching(/429|rate limit/i) });
    // The HTTP answer of a refused call: 429, Retry-After, RateLimit, the JSON-RPC error with the envelope.
    for (const args of [{}, { granularity: 'week' }]) {
      const res = await mcpCall('retail_account_usage', args, key);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(90);
      expect(remainingOf(res)).toMatch(new RegExp(`^"${TRICKLE}";r=0;t=\\d+$`));
      const body = (await res.json()) as { error: { code: number; data: { errors: { code: number }[] } } };
      expect(body.error).toMatchObject({ code: -32029, data: { errors: [{ code: 429 }] } });
    }
  });
});
