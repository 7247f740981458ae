import { type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { CacheStatus, ErrorDetailSchema, ErrorReason, RetailService } from '@retail/contract';
import { loadResilienceConfig } from '@retail/core/resilience/config';
import { createPageServices, type PageServices } from '@retail/core/page-services';
import { createPageFetcher } from '@retail/core/upstream/index';
import type { ParsePool } from '@retail/core/workers/pool';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type StartedCore } from '../harness/core.js';
import { createReplayServer, type ReplayServer } from '../replay/server.js';
import { createFaultOrigin, type FaultOrigin } from './fault-origin.js';

/*
 * Through gRPC: a real core whose ctx.pages is the resilient stack (createPageServices), the real
 * upstream client, the fault origin and the replay server.
 */
const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
let replay: ReplayServer;
let faults: FaultOrigin;
const started: { core: StartedCore; services: PageServices }[] = [];

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [fixtures] });
  faults = await createFaultOrigin(replay.origin);
});
afterAll(async () => {
  for (const s of started) {
    await s.core.stop();
    await s.services.close();
  }
  await faults.close();
  await replay.close();
});

async function core(env: Record<string, string> = {}) {
  const services = createPageServices({
    raw: createPageFetcher({ origin: faults.origin, timeoutMs: 2_000 }),
    settings: loadResilienceConfig({ UPSTREAM_RETRY_BASE_MS: '10', UPSTREAM_RETRY_MAX_MS: '10', UPSTREAM_HOST_RATE: '0', PARSE_WORKERS: '0', ...env }),
  });
  // Counts the parses each parser ran (the pool is where every handler's parse goes).
  const counts = new Map<string, number>();
  const parsePool: ParsePool = {
    ...services.parsePool,
    parse: (parser, ...rest) => {
      counts.set(parser, (counts.get(parser) ?? 0) + 1);
      return services.parsePool.parse(parser, ...rest);
    },
  };
  const c = await startCore({ pages: services.pages, parsedPages: services.parsedPages, parsePool, metrics: services.metrics });
  started.push({ core: c, services });
  const client: Client<typeof RetailService> = createClient(RetailService, createGrpcTransport({ baseUrl: c.baseUrl }));
  return { client, services, headers: { authorization: `Bearer ${c.token}` }, parses: (parser: string) => counts.get(parser) ?? 0 };
}

describe('GetProduct through gRPC on the resilient page stack', () => {
  it('100 identical concurrent cold calls make exactly one upstream fetch', async () => {
    const { client, headers } = await core();
    faults.inject('/dp/B0FXTUS001', { kind: 'delay', ms: 30 });
    const answers = await Promise.all(Array.from({ length: 100 }, () => client.getProduct({ asin: 'B0FXTUS001' }, { headers })));
    expect(faults.count('/dp/B0FXTUS001')).toBe(1);
    expect(answers.every((a) => a.retailProduct?.title?.includes('Acme Barista Pro'))).toBe(true);
    faults.clear();
  });

  it('an open circuit is UNAVAILABLE with reason CIRCUIT_OPEN and retry-after, without a fetch', async () => {
    const { client, headers } = await core({ UPSTREAM_BREAKER_FAILURES: '2', UPSTREAM_RETRY_ATTEMPTS: '1', UPSTREAM_BREAKER_OPEN_MS: '30000' });
    faults.inject('/dp/B0FXTUS002', { kind: 'status', status: 503 });
    for (let i = 0; i < 2; i++) await client.getProduct({ asin: 'B0FXTUS002' }, { headers }).catch(() => undefined);
    const error = await client.getProduct({ asin: 'B0FXTUS002' }, { headers }).then(
      () => expect.unreachable(),
      (e: unknown) => e as ConnectError,
    );
    expect(error.code).toBe(Code.Unavailable);
    const detail = error.findDetails(ErrorDetailSchema)[0]!;
    expect(detail.reason).toBe(ErrorReason.CIRCUIT_OPEN);
    expect(detail.retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect(faults.count('/dp/B0FXTUS002')).toBe(2);
    faults.clear();
  });

  it('GetProduct answers MISS then HIT from one upstream fetch, with the same record and retrieval time', async () => {
    const { client, headers } = await core();
    const before = faults.count('/dp/0316769487');
    const miss = await client.getProduct({ asin: '0316769487' }, { headers });
    const hit = await client.getProduct({ asin: '0316769487' }, { headers });
    expect([miss.meta?.cache, hit.meta?.cache]).toEqual([CacheStatus.MISS, CacheStatus.HIT]);
    expect(hit.retailProduct).toEqual(miss.retailProduct);
    expect(hit.meta?.retrievedAt).toEqual(miss.meta?.retrievedAt);
    expect(faults.count('/dp/0316769487') - before).toBe(1);
  });

  it("the call's deadline reaches the retry policy: no retry starts that could not finish in time", async () => {
    // Back-off ≤ 10 ms, but a retry needs 5 s of deadline left: with a 2 s deadline the first attempt
    // (milliseconds, even on a loaded machine) answers 503 and no retry may start.
    const { client, headers } = await core({ UPSTREAM_RETRY_ATTEMPTS: '3', UPSTREAM_RETRY_MIN_ATTEMPT_MS: '5000' });
    faults.inject('/dp/B0FXTUS004', { kind: 'status', status: 503 });
    const error = await client.getProduct({ asin: 'B0FXTUS004' }, { headers, timeoutMs: 2_000 }).then(() => expect.unreachable(), (e: unknown) => e as ConnectError);
    expect(faults.count('/dp/B0FXTUS004')).toBe(1);
    expect(error.code).toBe(Code.Unavailable); // the marketplace's failure, not a deadline the retries slept into
    faults.clear();
  });

  it('an unparseable page is UPSTREAM_ERROR, counted as unparseable, and not cached', async () => {
    const { client, headers, services } = await core();
    faults.inject('/dp/B0FXTUS003', { kind: 'status', status: 200, body: '<html><body><h2>Something else entirely</h2></body></html>' });
    const failures = [];
    for (let i = 0; i < 2; i++) failures.push(await client.getProduct({ asin: 'B0FXTUS003' }, { headers }).then(() => expect.unreachable(), (e: unknown) => e as ConnectError));
    for (const error of failures) {
      const detail = error.findDetails(ErrorDetailSchema)[0]!;
      expect(detail.reason).toBe(ErrorReason.UPSTREAM_ERROR);
    }
    expect(faults.count('/dp/B0FXTUS003')).toBe(2);
    expect(services.metrics.snapshot().counters['upstream_fetch_total{host="www.amazon.com",outcome="unparseable"}']).toBe(2);
    faults.clear();
  });

  it('product, variants, stock, sales and reviews of one product share one fetch and one parse', async () => {
    const { client, headers, parses } = await core();
    const before = faults.count('/dp/B0FXTUS001');
    const asin = 'B0FXTUS001';
    const product = await client.getProduct({ asin }, { headers });
    const others = await Promise.all([
      client.getProductVariants({ asin }, { headers }),
      client.getStockEstimate({ asin }, { headers }),
      client.getSalesEstimate({ asin }, { headers }),
      client.getProductReviews({ asin }, { headers }),
      client.getGtinFromAsin({ asin }, { headers }),
    ]);
    expect(product.meta?.cache).toBe(CacheStatus.MISS);
    expect(others.map((o) => o.meta?.cache)).toEqual(others.map(() => CacheStatus.HIT));
    expect(others.map((o) => o.meta?.retrievedAt)).toEqual(others.map(() => product.meta?.retrievedAt));
    expect(product.retailProduct?.title).toContain('Acme Barista Pro');
    expect([faults.count('/dp/B0FXTUS001') - before, parses('product-page')]).toEqual([1, 1]);
  });
});
