/**
 * A balance below zero after a late debit (issue 24, docs/metering.md "A balance below zero"), made for
 * real on `npm start` with a real redis-server as the ledger and a real PostgreSQL as its record: the
 * account is lost from Redis and restored from the record, then a batch charged before the restore
 * reaches the record after it and is taken as a late debit. Every surface then shows the same debt as a
 * negative number (REST's X-Units-Remaining, GraphQL's extensions, MCP's _meta, GET /api/account, the
 * console's account), metered calls answer 402 without overdrawing further, free calls keep working,
 * and the next grant pays the debt first.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '../../gateways/metering/src/index.js';
import { DEFAULT_PLAN, DEFAULT_PLANS } from '../../gateways/metering/src/plans.js';
import { createLedgerRecord } from '../../gateways/metering/src/record/ledger-record.js';
import { lateDebitsTo } from '../../gateways/metering/src/record/recorded-store.js';
import { createRedisStore } from '../../gateways/metering/src/redis-store.js';
import { startOneProcess, type OneProcess } from '../harness/one-process.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { until } from '../harness/until.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('a balance below zero after a late debit', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let record: Database;
  let app: OneProcess;
  let admin: MeteringInstance;
  let redisAdmin: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('negative_balance');
    app = await startOneProcess({ REDIS_URL: redis.url, DATABASE_URL: test.url, WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') });
    record = createPostgresDatabase({ connectionString: test.url });
    // The operator's admin CLI: another process on the same ledger and record.
    admin = await createMetering({ redisUrl: redis.url, record, log: () => undefined });
    redisAdmin = new Redis(redis.url);
  }, 120_000);
  afterAll(async () => {
    redisAdmin?.disconnect();
    await admin?.close();
    await app?.stop();
    await record?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('shows the debt as a negative number on every surface, refuses metered calls with 402 without overdrawing, and is paid by the next grant', async () => {
    const url = app.stack.url;
    // A console user (its session cookie carried by hand) and a key of its account.
    const session = await fetch(`${url}/console/api/session`);
    let cookie = session.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    let { csrfToken } = ((await session.json()) as { data: { csrfToken: string } }).data;
    const consoleCall = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}/console/api/${path}`, {
        method, headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const set = response.headers.getSetCookie();
      if (set.length > 0) cookie = set.map((c) => c.split(';')[0]).join('; ');
      return response;
    };
    const signUp = await consoleCall('POST', 'signup', { email: `debt.${randomUUID()}@example.com`, password: 'correct horse battery' });
    expect(signUp.status).toBe(201);
    csrfToken = ((await signUp.json()) as { data: { csrfToken: string } }).data.csrfToken;
    const { key } = ((await (await consoleCall('POST', 'keys', { label: 'debt' })).json()) as { data: { key: string } }).data;
    const consoleAccount = async () => ((await (await consoleCall('GET', 'account')).json()) as { data: { accountId: string; balance: number } }).data;
    const { accountId, balance: granted } = await consoleAccount();
    expect(granted).toBeGreaterThan(0);

    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${url}${path}`, { ...init, headers: { 'API-KEY': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...init.headers } });
    const product = () => api('/api/retail/product?asin=B0FXTUS001');
    const served = await product();
    expect(served.status).toBe(200);
    expect(served.headers.get('x-units-remaining')).toBe(String(granted - 1));
    await until(async () => (await record.query('SELECT 1 FROM ledger_usage WHERE account_id = $1', [accountId])).length === 1, 'the call in the record');

    // The account is lost from Redis (its keys: one hash tag), and its next call restores it from the record.
    for (const name of await redisAdmin.keys(`ledger:{${accountId}}:*`)) await redisAdmin.del(name);
    const restored = await api('/api/account');
    expect(((await restored.json()) as { data: { balance: number } }).data.balance).toBe(granted - 1);

    // A batch another process charged before the restore (epoch 0) reaches the record after it: a late
    // debit, taken by that process's consumer from the restored balance. It costs 3 units more than is left.
    const owed = 3;
    const lateUnits = granted - 1 + owed;
    const written = await createLedgerRecord(record).writeUsage(async () => [{
      accountId, holdId: 'h.late.batch', keyId: '', iface: 'rest', operations: Array.from({ length: lateUnits }, () => 'GetProduct'), units: lateUnits, at: Date.now() - 60_000, epoch: 0,
    }]);
    expect(written.late).toHaveLength(1);
    const otherProcess = createRedisStore({
      plans: DEFAULT_PLANS, defaultPlan: DEFAULT_PLAN, lastUsedIntervalMs: 60_000, usageRetention: 100, auditRetention: 100,
      settleAnswerTtlMs: 60_000, redisUrl: redis.url, keyPrefix: 'ledger:', settleWindowMs: 5_000, usageStream: 'ledger:usage-handoff',
    });
    await otherProcess.ready();
    const lines: string[] = [];
    await lateDebitsTo(otherProcess, Date.now, (line) => lines.push(line))(written.late);
    await otherProcess.close();
    expect(lines.join('\n')).toMatch(/late debits/);

    // GET /api/account and the console: the debt as it is.
    const account = ((await (await api('/api/account')).json()) as { data: { balance: number } }).data;
    expect(account.balance).toBe(-owed);
    expect((await consoleAccount()).balance).toBe(-owed);

    // Metered calls: 402 on REST, GraphQL and MCP, nothing charged, the balance not moved.
    const refused = await product();
    expect(refused.status).toBe(402);
    expect(refused.headers.get('x-units-charged')).toBe('0');
    expect(refused.headers.get('x-units-remaining')).toBeNull();
    const graphqlRefused = (await (await api('/api/graphql', { method: 'POST', body: JSON.stringify({ query: '{ retailProduct(asin: "B0FXTUS001") { asin } }' }) })).json()) as {
      errors: Array<{ code: number }>; extensions?: { unitsRemaining?: number };
    };
    expect(graphqlRefused.errors.map((e) => e.code)).toEqual([402]);
    expect(graphqlRefused.extensions?.unitsRemaining).toBeUndefined();
    const mcpRefused = (await (await api('/api/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: 'B0FXTUS001' } } }) })).json()) as {
      error: { data: { errors: Array<{ code: number }> } };
    };
    expect(mcpRefused.error.data.errors.map((e) => e.code)).toEqual([402]);
    expect((await consoleAccount()).balance).toBe(-owed);

    // Free calls keep working in debt, and report the debt: REST header, GraphQL extensions, MCP _meta.
    const freeRest = await api('/api/retail/watches');
    expect(freeRest.status).toBe(200);
    expect(freeRest.headers.get('x-units-charged')).toBe('0');
    expect(freeRest.headers.get('x-units-remaining')).toBe(String(-owed));
    const freeGraphql = (await (await api('/api/graphql', { method: 'POST', body: JSON.stringify({ query: '{ retailWatches { watches { id } } }' }) })).json()) as {
      data: unknown; extensions: { unitsCharged: number; unitsRemaining: number };
    };
    expect(freeGraphql.data).toEqual({ retailWatches: { watches: [] } });
    expect(freeGraphql.extensions).toMatchObject({ unitsCharged: 0, unitsRemaining: -owed });
    const freeMcp = (await (await api('/api/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'retail_watch_list', arguments: {} } }) })).json()) as {
      result: { isError?: boolean; _meta: { unitsCharged: number; unitsRemaining: number } };
    };
    expect(freeMcp.result.isError ?? false).toBe(false);
    expect(freeMcp.result._meta).toMatchObject({ unitsCharged: 0, unitsRemaining: -owed });
    expect((await consoleAccount()).balance).toBe(-owed);

    // The OpenAPI document declares what was answered: an integer balance with no lower bound, and a header that may be negative.
    const openapi = (await (await fetch(`${url}/api/openapi.json`)).json()) as any;
    const balanceSchema = openapi.paths['/api/account'].get.responses['200'].content['application/json'].schema;
    const balance = (balanceSchema.$ref ? openapi.components.schemas[balanceSchema.$ref.split('/').pop()] : balanceSchema).properties.data.properties.balance;
    expect(balance.type).toBe('integer');
    expect(balance.minimum).toBeUndefined();
    expect(balance.description).toMatch(/below zero/i);
    const header = openapi.paths['/api/retail/product'].get.responses['200'].headers['X-Units-Remaining'];
    expect(header.description).toMatch(/negative/);

    // A grant pays the debt first.
    expect((await admin.admin.grantUnits(accountId, 5)).balance).toBe(5 - owed);
    const paid = await product();
    expect(paid.status).toBe(200);
    expect(paid.headers.get('x-units-remaining')).toBe(String(5 - owed - 1));
  }, 60_000);
});
