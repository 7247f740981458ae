import { fromBinary } from '@bufbuild/protobuf';
import { type Client, Code, ConnectError, createClient, decodeBinaryHeader } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { CacheStatus, ERROR_DETAIL_METADATA_KEY, ErrorDetailSchema, ErrorReason, RetailService } from '@retail/contract';
import { HANDLERS, type HandlerTable } from '@retail/core';
import { metaOfParsed, parsedPage, PRODUCT_PARSER } from '@retail/core/operations/parsed-pages';
import { parseProductPage } from '@retail/core/parsers/product';
import { loadResilienceConfig } from '@retail/core/resilience/config';
import { createPageServices, type PageServices } from '@retail/core/resilience/page-services';
import { createPageFetcher } from '@retail/core/upstream/index';
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

async function core(env: Record<string, string> = {}, handlers?: (s: PageServices) => HandlerTable) {
  const services = createPageServices({
    raw: createPageFetcher({ origin: faults.origin, timeoutMs: 2_000 }),
    settings: loadResilienceConfig({ UPSTREAM_RETRY_BASE_MS: '10', UPSTREAM_RETRY_MAX_MS: '10', UPSTREAM_HOST_RATE: '0', PARSE_WORKERS: '0', ...env }),
  });
  const c = await startCore({ pages: services.pages, ...(handlers ? { handlers: handlers(services) } : {}) });
  started.push({ core: c, services });
  const client: Client<typeof RetailService> = createClient(RetailService, createGrpcTransport({ baseUrl: c.baseUrl }));
  return { client, services, headers: { authorization: `Bearer ${c.token}` } };
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
    const detail = fromBinary(ErrorDetailSchema, decodeBinaryHeader(error.metadata.get(ERROR_DETAIL_METADATA_KEY)!));
    expect(detail.reason).toBe(ErrorReason.CIRCUIT_OPEN);
    expect(detail.retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect(faults.count('/dp/B0FXTUS002')).toBe(2);
    faults.clear();
  });

  it('the stock GetProduct handler (fetchPage) answers MISS then HIT from one upstream fetch', async () => {
    const { client, headers } = await core();
    const before = faults.count('/dp/0316769487');
    const miss = await client.getProduct({ asin: '0316769487' }, { headers });
    const hit = await client.getProduct({ asin: '0316769487' }, { headers });
    expect([miss.meta?.cache, hit.meta?.cache]).toEqual([CacheStatus.MISS, CacheStatus.HIT]);
    expect(hit.retailProduct).toEqual(miss.retailProduct);
    expect(hit.meta?.retrievedAt).toEqual(miss.meta?.retrievedAt);
    expect(faults.count('/dp/0316769487') - before).toBe(1);
  });

  it('a handler on parsed pages answers MISS then HIT from one fetch and one parse', async () => {
    let parses = 0;
    const { client, headers } = await core({}, (services) => ({
      ...HANDLERS,
      // How a handler adopts the parsed-page source (docs/resilience.md, "Handlers").
      GetProduct: async (request, ctx) => {
        const asin = request.lookup.kind === 'asin' ? request.lookup.asin : '';
        const page = await parsedPage({ ...ctx, parsedPages: services.parsedPages }, { path: `/dp/${asin}`, kind: 'product' }, PRODUCT_PARSER, (p) => {
          parses++;
          return parseProductPage(p.html, { marketplace: ctx.marketplace, asin });
        });
        return { retailProduct: page.value.product, meta: metaOfParsed(page) };
      },
    }));
    const before = faults.count('/dp/B0FXTUS001');
    const miss = await client.getProduct({ asin: 'B0FXTUS001' }, { headers });
    const hit = await client.getProduct({ asin: 'B0FXTUS001' }, { headers });
    expect(miss.meta?.cache).toBe(CacheStatus.MISS);
    expect(hit.meta?.cache).toBe(CacheStatus.HIT);
    expect(hit.retailProduct).toEqual(miss.retailProduct);
    expect(hit.meta?.retrievedAt).toEqual(miss.meta?.retrievedAt);
    expect([faults.count('/dp/B0FXTUS001') - before, parses]).toEqual([1, 1]);
  });
});
