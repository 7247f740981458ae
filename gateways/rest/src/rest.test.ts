import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { Validator } from '@seriousme/openapi-schema-validator';
import { CacheStatus, ErrorReason, type GetProductRequest, ProductSchema } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { type StubCore, coreError, startStubCore } from '../../../test/harness/stub-core.js';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseValidator } from '../../../test/contract/openapi-validator.js';
import { createRestApp } from './app.js';
import { buildOpenApi } from './openapi.js';

const TOKEN = 'test-service-token';
let core: StubCore;
let metering: MeteringInstance;
let server: Server;
let base: string;
let key: string;
let accountId: string;
const doc = buildOpenApi();
const responses = createResponseValidator(doc);

async function get(path: string, headers: Record<string, string> = { 'API-KEY': key }) {
  const res = await fetch(`${base}${path}`, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body: body as Record<string, unknown> };
}

beforeAll(async () => {
  core = await startStubCore({
    serviceToken: TOKEN,
    handlers: {
      GetProduct: (req) => {
        const { asin } = req as GetProductRequest;
        if (asin === 'B000000404') throw coreError(ErrorReason.NOT_FOUND, 'no product with this identifier');
        if (asin === 'B000000503') throw coreError(ErrorReason.UPSTREAM_BLOCKED, undefined, [], 7);
        if (asin === 'B000000500') throw new ConnectError('segfault at 0x0', Code.Internal);
        if (asin === undefined) throw coreError(ErrorReason.INVALID_ARGUMENT, 'asin, url or gtin must be provided');
        return {
          retailProduct: create(ProductSchema, { asin: asin.toUpperCase(), title: 'Kettle', isPrime: false, ratingsTotal: 3n }),
          meta: { cache: CacheStatus.HIT, retrievedAt: timestampFromDate(new Date('2026-01-02T03:04:05Z')) },
        };
      },
      GetSalesEstimate: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return {};
      },
      GetAsinFromGtin: () => {
        throw coreError(ErrorReason.INVALID_ARGUMENT, 'gtin has an invalid check digit', ['gtin']);
      },
    },
  });
  metering = await createMetering();
  ({ accountId } = await metering.admin.createAccount({ units: 100, plan: 'unlimited' }));
  ({ key } = await metering.admin.createKey(accountId));
  const app = createRestApp({ core: createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000 }), metering });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await core?.close();
  await metering?.close();
});

describe('REST gateway', () => {
  it('serves an operation as { data } with the metering headers, valid against its OpenAPI document', async () => {
    const res = await get('/api/retail/product?asin=b0test0001&domain=DE', { 'API-KEY': key, 'X-Request-Id': 'req-123' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        retailProduct: {
          asin: 'B0TEST0001', title: 'Kettle', isPrime: false, ratingsTotal: 3, coupon: null, seller: null,
          imageUrls: [], featureBullets: [], technicalSpecifications: [], categories: [],
        },
      },
    });
    expect(responses.check('/api/retail/product', 200, res.body)).toEqual([]);
    expect(res.headers.get('x-request-id')).toBe('req-123');
    expect(res.headers.get('x-units-charged')).toBe('1');
    expect(res.headers.get('x-units-remaining')).toBe('99');
    expect(res.headers.get('x-cache')).toBe('HIT');
    expect(res.headers.get('x-retrieved-at')).toBe('2026-01-02T03:04:05.000Z');
    expect(res.headers.get('ratelimit-policy')).toBeTruthy();
    const call = core.calls.at(-1)!;
    expect(call.headers.get('x-request-id')).toBe('req-123');
    expect((call.request as GetProductRequest).asin).toBe('b0test0001');
  });

  it('accepts the key as a Bearer token and refuses missing, wrong and conflicting keys without charge', async () => {
    expect((await get('/api/retail/product?asin=B0TEST0001', { Authorization: `Bearer ${key}` })).status).toBe(200);
    for (const [headers, status] of [
      [{}, 401],
      [{ 'API-KEY': 'rk_live_nope' }, 401],
      [{ 'API-KEY': key, Authorization: 'Bearer other-key' }, 400],
    ] as const) {
      const res = await get('/api/retail/product?asin=B0TEST0001', headers);
      expect(res.status).toBe(status);
      expect(res.body.success).toBe(false);
      expect(responses.check('/api/retail/product', status, res.body)).toEqual([]);
      expect(res.headers.get('x-units-charged')).toBe('0');
      if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('answers unknown, repeated and malformed parameters with 400 naming them, before the core', async () => {
    const before = core.calls.length;
    const cases: Array<[string, string[]]> = [
      ['/api/retail/product?asin=B0TEST0001&bogus=1', ['query', 'bogus']],
      ['/api/retail/product?asin=B0TEST0001&asin=B0TEST0002', ['query', 'asin']],
      ['/api/retail/product?asin=short', ['query', 'asin']],
      ['/api/retail/search?searchTerm=tea&page=0', ['query', 'page']],
      ['/api/retail/search?searchTerm=tea&conditions=NEW,OLD', ['query', 'conditions']],
      ['/api/retail/search', ['query', 'searchTerm']],
      ['/api/retail/product?domain=ZZ&asin=B0TEST0001', ['query', 'domain']],
    ];
    for (const [path, errorPath] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect((res.body.errors as Array<{ path: string[] }>)[0]?.path).toEqual(errorPath);
      expect(res.headers.get('x-units-charged')).toBe('0');
    }
    expect(core.calls.length).toBe(before);
  });

  it('maps core errors by reason: 404, 503 with Retry-After, 400 with a query path, 501, and 500 without detail', async () => {
    const notFound = await get('/api/retail/product?asin=B000000404');
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ success: false, errors: [{ code: 404, message: 'no product with this identifier' }] });
    const blocked = await get('/api/retail/product?asin=B000000503');
    expect(blocked.status).toBe(503);
    expect(blocked.headers.get('retry-after')).toBe('7');
    const badGtin = await get('/api/retail/product/asin-from-gtin?gtin=9780306406158');
    expect(badGtin.body).toEqual({ success: false, errors: [{ code: 400, message: 'gtin has an invalid check digit', path: ['query', 'gtin'] }] });
    const unbuilt = await get('/api/retail/seller?sellerId=A1B2C3D4E5');
    expect(unbuilt.status).toBe(501);
    const crash = await get('/api/retail/product?asin=B000000500');
    expect(crash.status).toBe(500);
    expect(JSON.stringify(crash.body)).not.toContain('segfault');
    for (const res of [notFound, blocked, badGtin, unbuilt, crash]) expect(res.headers.get('x-units-charged')).toBe('0');
    const summary = await metering.admin.summary(accountId);
    expect(summary.balance).toBe(98); // the two successes above, nothing for errors
  });

  it('logs the private cause of a 500 with the request id, and never sends it', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const logger = { error: (obj: unknown) => void logged.push(obj as Record<string, unknown>), warn: (obj: unknown) => void logged.push(obj as Record<string, unknown>) };
    const app = createRestApp({ core: createCoreClient({ address: core.address, serviceToken: TOKEN }), metering, logger: logger });
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/api/retail/product?asin=B000000500`, { headers: { 'API-KEY': key, 'X-Request-Id': 'crash-1' } });
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('segfault');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ requestId: 'crash-1', operation: 'GetProduct', status: 500 });
      expect(String((logged[0]!.err as Error).message)).toContain('segfault');
    } finally {
      other.closeAllConnections();
      other.close();
    }
  });

  it('answers 503 when the core cannot be reached, without charge', async () => {
    const app = createRestApp({ core: createCoreClient({ address: '127.0.0.1:1', serviceToken: TOKEN, deadlineMs: 2000 }), metering });
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/api/retail/product?asin=B0TEST0001`, { headers: { 'API-KEY': key } });
      expect(res.status).toBe(503);
      expect(res.headers.get('x-units-charged')).toBe('0');
    } finally {
      other.close();
    }
  });

  it('answers 504 when the core misses the gateway deadline, without charge', async () => {
    const app = createRestApp({ core: createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 200 }), metering });
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/api/retail/product/sales?asin=B0TEST0001`, { headers: { 'API-KEY': key } });
      expect(res.status).toBe(504);
      expect(res.headers.get('x-units-charged')).toBe('0');
    } finally {
      other.closeAllConnections();
      other.close();
    }
  });

  it('keeps everything JSON: 404 and 405 envelopes (HEAD too, uncharged), malformed encodings, the free OpenAPI document, the account', async () => {
    const missing = await get('/api/retail/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.success).toBe(false);
    const post = await fetch(`${base}/api/retail/product`, { method: 'POST', headers: { 'API-KEY': key } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    expect(((await post.json()) as { success: boolean }).success).toBe(false);
    const units = (await metering.admin.summary(accountId)).balance;
    const head = await fetch(`${base}/api/retail/product?asin=B0TEST0001`, { method: 'HEAD', headers: { 'API-KEY': key } });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    expect((await metering.admin.summary(accountId)).balance).toBe(units);
    const broken = await get('/api/retail/product?asin=%E0%A4%A');
    expect(broken.status).toBe(400);
    const brokenPath = await get('/api/retail/%E0%A4%A');
    expect(brokenPath.status).toBe(404);
    expect(brokenPath.body.success).toBe(false);
    const openapi = await get('/api/openapi.json', {});
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe('3.1.0');
    const account = await get('/api/account');
    expect(account.status).toBe(200);
    expect((account.body.data as { accountId: string }).accountId).toBe(accountId);
    expect(responses.check('/api/account', 200, account.body)).toEqual([]);
    expect((await get('/api/account', {})).status).toBe(401);
  });

  it('keeps CORS closed unless origins are configured, then answers only those', async () => {
    const closed = await fetch(`${base}/api/retail/product?asin=B0TEST0001`, { headers: { 'API-KEY': key, Origin: 'https://app.example' } });
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    const app = createRestApp({ core: createCoreClient({ address: core.address, serviceToken: TOKEN }), metering, corsOrigins: ['https://app.example'] });
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/retail/product?asin=B0TEST0001`;
      const preflight = await fetch(url, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'api-key' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('API-KEY');
      const allowed = await fetch(url, { headers: { 'API-KEY': key, Origin: 'https://app.example' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(allowed.headers.get('access-control-expose-headers')).toContain('X-Units-Remaining');
      const stranger = await fetch(url, { headers: { 'API-KEY': key, Origin: 'https://evil.example' } });
      expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      other.closeAllConnections();
      other.close();
    }
  });

  it('compresses with br and gzip when asked', async () => {
    const http = await import('node:http');
    const fetchRaw = (encoding: string) =>
      new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
        http.get(`${base}/api/openapi.json`, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const br = await fetchRaw('br');
    expect(br.encoding).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString()).openapi).toBe('3.1.0');
    const gz = await fetchRaw('gzip');
    expect(gz.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()).openapi).toBe('3.1.0');
  });
});

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1.0 document with every operation, both security schemes and every error status', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect((doc.info as { version: string }).version).toBe('1.0.0');
    const paths = doc.paths as Record<string, { get: { operationId: string; responses: Record<string, unknown>; parameters?: Array<{ name: string; schema: Record<string, unknown> }> } }>;
    const { REGISTRY } = await import('@retail/gateway-shared');
    for (const op of REGISTRY) {
      const get = paths[op.restPath]?.get;
      expect(get?.operationId).toBe(op.operationId);
      for (const status of ['200', '400', '401', '402', '403', '404', '429', '500', '501', '502', '503', '504']) expect(get?.responses).toHaveProperty(status);
      expect(get?.parameters?.map((p) => p.name)).toEqual(op.parameters.map((p) => p.name));
    }
    const schemes = (doc.components as { securitySchemes: Record<string, Record<string, string>> }).securitySchemes;
    expect(Object.values(schemes)).toEqual(expect.arrayContaining([
      { type: 'apiKey', in: 'header', name: 'API-KEY' },
      { type: 'http', scheme: 'bearer' },
    ]));
    const schemas = (doc.components as { schemas: Record<string, { properties: Record<string, unknown>; additionalProperties?: boolean }> }).schemas;
    expect(schemas.IdentifierPair?.additionalProperties).toBe(false);
    const conditions = paths['/api/retail/search']?.get.parameters?.find((p) => p.name === 'conditions')?.schema as { pattern: string };
    const comma = new RegExp(conditions.pattern, 'u');
    expect(['NEW', 'NEW,USED,RENEWED'].every((v) => comma.test(v))).toBe(true);
    expect(['', 'NEW,', '["NEW"]', 'NEW,OLD'].some((v) => comma.test(v))).toBe(false);
    expect(schemas.Product?.properties.ratingsTotal).toMatchObject({ type: 'integer', maximum: 4503599627370495 });
  });
});
