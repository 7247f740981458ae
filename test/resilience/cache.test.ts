import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceByCode } from '@retail/core/marketplaces/index';
import type { FetchedPage, PageRequest } from '@retail/core/pages/types';
import { total } from '@retail/core/outcomes/metrics';
import { loadResilienceConfig } from '@retail/core/resilience/config';
import { createPageServices, type PageServices } from '@retail/core/page-services';
import { createPageFetcher } from '@retail/core/upstream/index';
import { redisMissing, startRedis } from '../harness/redis.js';
import { createReplayServer, type ReplayServer } from '../replay/server.js';
import { createFaultOrigin, type FaultOrigin } from './fault-origin.js';

/* The page stack as the core builds it (createPageServices) over the real upstream client. */
const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const US = marketplaceByCode('US');
const PRODUCT = '/dp/B0FXTUS001';
const settings = (extra: Record<string, string> = {}) =>
  loadResilienceConfig({ UPSTREAM_RETRY_BASE_MS: '10', UPSTREAM_RETRY_MAX_MS: '10', UPSTREAM_HOST_RATE: '0', PARSE_WORKERS: '0', ...extra });

let replay: ReplayServer;
let faults: FaultOrigin;
const services: PageServices[] = [];

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [fixtures] });
  faults = await createFaultOrigin(replay.origin);
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
  await faults.close();
  await replay.close();
});

const build = (extra?: Record<string, string>, cacheRedisUrl?: string) => {
  // Each stack gets its own raw client so closing one never closes another's pools.
  const s = createPageServices({ raw: createPageFetcher({ origin: faults.origin, timeoutMs: 2_000 }), settings: settings(extra), cacheRedisUrl });
  services.push(s);
  return s;
};
const get = (c: string): PageRequest => ({ marketplace: US, path: PRODUCT, query: { c }, kind: 'product', signal: new AbortController().signal });
const path = (c: string) => `${PRODUCT}?c=${c}`;
const product = { id: 'product', version: 1 };
const titleOf = (page: FetchedPage) => /<span id="productTitle"[^>]*>\s*([^<]+?)\s*</.exec(page.html)?.[1] ?? '';

describe('single-flight', () => {
  it('100 identical concurrent cold requests make exactly one upstream fetch (parsed pages)', async () => {
    const s = build();
    faults.inject(path('flight'), { kind: 'delay', ms: 20 });
    let parses = 0;
    const all = await Promise.all(Array.from({ length: 100 }, () => s.parsedPages.parsed(get('flight'), product, (p) => (parses++, titleOf(p)))));
    expect(faults.count(path('flight'))).toBe(1);
    expect(parses).toBe(1);
    expect(new Set(all.map((r) => r.value))).toEqual(new Set([expect.stringContaining('Acme Barista Pro')]));
    // Served from the cache afterwards.
    expect((await s.parsedPages.parsed(get('flight'), product, titleOf)).fromCache).toBe(true);
    expect(faults.count(path('flight'))).toBe(1);
  });

  it('100 identical concurrent cold HTML fetches (through the same cache) share one fetch too', async () => {
    const s = build();
    faults.inject(path('raw'), { kind: 'delay', ms: 20 });
    const pages = await Promise.all(Array.from({ length: 100 }, () => s.pages.fetchPage(get('raw'))));
    expect(faults.count(path('raw'))).toBe(1);
    expect(pages.every((p) => p.status === 200)).toBe(true);
  });

  it('the shared fetch is retried once for all waiters', async () => {
    const s = build();
    faults.inject(path('flaky'), { kind: 'status', status: 503 }, 1);
    const all = await Promise.all(Array.from({ length: 10 }, () => s.parsedPages.parsed(get('flaky'), product, titleOf)));
    expect(all.every((r) => r.value.includes('Acme'))).toBe(true);
    expect(faults.count(path('flaky'))).toBe(2);
  });
});

describe('serve stale on upstream error', () => {
  it('answers STALE from an expired entry while the marketplace blocks', async () => {
    const s = build({ CACHE_TTL_SECONDS: 'product=0', CACHE_STALE_SECONDS: '3600' });
    // A 0 s fresh time: every read goes upstream, the stale window keeps the last good record.
    const first = await s.parsedPages.parsed(get('stale'), product, titleOf);
    faults.inject(path('stale'), { kind: 'captcha' });
    const second = await s.parsedPages.parsed(get('stale'), product, titleOf);
    expect(second).toMatchObject({ stale: true, fromCache: true, value: first.value });
    expect(second.retrievedAt).toEqual(first.retrievedAt);
  });
});

async function redisReady(s: PageServices): Promise<void> {
  const client = (s.cache as unknown as { client: Redis }).client;
  if (client.status !== 'ready') await once(client, 'ready');
}

const missing = redisMissing();
describe.skipIf(missing !== null)('Redis page cache (real redis-server)', () => {
  it('two core replicas share entries through Redis', async () => {
    const redis = await startRedis();
    try {
      const a = build({}, redis.url);
      const b = build({}, redis.url);
      for (const s of [a, b]) {
        await redisReady(s);
      }
      expect((await a.parsedPages.parsed(get('shared'), product, titleOf)).fromCache).toBe(false);
      const fromB = await b.parsedPages.parsed(get('shared'), product, titleOf);
      expect(fromB.fromCache).toBe(true);
      expect(fromB.value).toContain('Acme Barista Pro');
      expect(faults.count(path('shared'))).toBe(1);
    } finally {
      await redis.stop();
    }
  });

  it('a Redis outage degrades to no cache: requests still succeed, the failure is counted', async () => {
    const redis = await startRedis();
    const s = build({}, redis.url);
    await redisReady(s);
    await s.parsedPages.parsed(get('outage'), product, titleOf);
    await redis.stop();
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 3; i++) {
      const answer = await s.parsedPages.parsed(get('outage'), product, titleOf);
      expect(answer).toMatchObject({ fromCache: false, stale: false });
      expect(answer.value).toContain('Acme Barista Pro');
    }
    expect(faults.count(path('outage'))).toBe(4);
    expect(total(s.metrics.snapshot(), 'page_cache_store_error_total')).toBeGreaterThanOrEqual(3);
  });
});
if (missing) console.warn(`test/resilience/cache.test: Redis cases skipped: ${missing}`);
