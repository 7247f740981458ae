/**
 * The ledger store going away: every metered call answers 503 (LEDGER_UNAVAILABLE) with the
 * envelope and charges nothing, and the core is not called. Uses a real redis-server.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createCoreClient } from '@retail/gateway-shared';
import { type StubCore, startStubCore } from '../../../test/harness/stub-core.js';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisMissing, startRedis } from '../../../test/harness/redis.js';
import { createRestApp } from './app.js';

const missing = redisMissing();
const TOKEN = 'ledger-down-token';

describe.skipIf(missing !== null)('REST gateway with the ledger down', () => {
  let redis: RedisServer;
  let metering: MeteringInstance;
  let core: StubCore;
  let server: Server;
  let key: string;

  beforeAll(async () => {
    redis = await startRedis();
    metering = await createMetering({ redisUrl: redis.url });
    const { accountId } = await metering.admin.createAccount({ units: 10, plan: 'unlimited' });
    ({ key } = await metering.admin.createKey(accountId));
    core = await startStubCore({ serviceToken: TOKEN, handlers: { GetProduct: () => ({}) } });
    server = createRestApp({ core: createCoreClient({ address: core.address, serviceToken: TOKEN }), metering }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });

  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await core?.close();
    await metering?.close().catch(() => undefined);
    await redis?.stop();
  });

  it('serves while Redis is up, then answers 503 with nothing charged once it is gone', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/retail/product?asin=B0TEST0001`;
    const up = await fetch(url, { headers: { 'API-KEY': key } });
    expect(up.status).toBe(200);
    await redis.stop();
    const calls = core.calls.length;
    const down = await fetch(url, { headers: { 'API-KEY': key } });
    expect(down.status).toBe(503);
    expect(down.headers.get('x-units-charged')).toBe('0');
    expect(await down.json()).toEqual({ success: false, errors: [{ code: 503, message: expect.stringContaining('ledger') }] });
    expect(core.calls.length).toBe(calls);
  });
});
if (missing) console.info(`[rest] ${missing}`);
