/**
 * The access log (gateways/shared/src/access-log.ts): one JSON line per request with method, route,
 * status, duration, request id and the admitted key's id; never the key, never a query value.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createCoreClient, createGatewayLogger } from '@retail/gateway-shared';
import { createMetering } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestApp } from '../../gateways/rest/src/app.js';
import { type StubCore, startStubCore } from '../harness/stub-core.js';

const TOKEN = 'access-log-service-token';
const lines: Record<string, unknown>[] = [];
const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) });
let core: StubCore;
let server: Server;
let base = '';
let key = '';
let keyId = '';

beforeAll(async () => {
  core = await startStubCore({ serviceToken: TOKEN, handlers: { GetProduct: () => ({ product: { asin: 'B08N5WRWNW', title: 'a product' } }) } });
  const metering = await createMetering();
  const { accountId } = await metering.admin.createAccount({ units: 100, plan: 'unlimited' });
  const created = await metering.admin.createKey(accountId);
  key = created.key;
  keyId = created.info.keyId;
  const app = createRestApp({
    core: createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5_000 }),
    metering,
    accessLog: createGatewayLogger('rest-gateway', 'info', sink),
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => server?.close(done));
  await core?.close();
});

/** The access log line of the request with this id. */
function lineOf(requestId: string): Record<string, unknown> | undefined {
  return lines.find((l) => l.msg === 'request' && l.requestId === requestId);
}

describe('the access log', () => {
  it('writes one line per request with the route, never the key or the query values', async () => {
    const res = await fetch(`${base}/api/retail/product?asin=B08N5WRWNW&domain=US`, { headers: { 'API-KEY': key, 'X-Request-Id': 'access-1' } });
    expect(res.status).toBe(200);
    await expect.poll(() => lineOf('access-1')).toBeTruthy();
    const line = lineOf('access-1')!;
    expect(line).toMatchObject({ level: 30, service: 'rest-gateway', method: 'GET', route: '/api/retail/product', status: 200, keyId });
    expect(typeof line.durationMs).toBe('number');
    expect(lines.filter((l) => l.requestId === 'access-1')).toHaveLength(1);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(key);
    expect(text).not.toContain('B08N5WRWNW&');
    expect(text).not.toContain('asin=');
  });

  it('logs a refused request without a key id, and the bad key nowhere', async () => {
    const res = await fetch(`${base}/api/retail/product?asin=B08N5WRWNW`, { headers: { 'API-KEY': 'not-a-real-key-value', 'X-Request-Id': 'access-2' } });
    expect(res.status).toBe(401);
    await expect.poll(() => lineOf('access-2')).toBeTruthy();
    expect(lineOf('access-2')).toMatchObject({ status: 401, route: '/api/retail/product' });
    expect(lineOf('access-2')).not.toHaveProperty('keyId');
    expect(JSON.stringify(lines)).not.toContain('not-a-real-key-value');
  });
});
