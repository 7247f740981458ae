/**
 * GetProduct through gRPC on the resilient page stack: cache miss (cold: upstream fetch from the
 * replay server + parse) vs cache hit (parsed record from the page cache), memory store and Redis.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/cache.ts [--samples 200]
 *
 * Misses use a different product each time (then repeat with a fresh cache), hits repeat one product.
 * The core as it runs (parsed-page source: a hit is the parsed record), then without the parsed-page
 * source (handlers fetch through the HTML-entry cache: a hit still decompresses and re-parses).
 */
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { RetailService } from '@retail/contract';
import { loadResilienceConfig } from '../core/src/resilience/config.js';
import { createPageServices } from '../core/src/page-services.js';
import { createPageFetcher } from '../core/src/upstream/index.js';
import { startCore } from '../test/harness/core.js';
import { redisMissing, startRedis } from '../test/harness/redis.js';
import { createReplayServer } from '../test/replay/server.js';

const { values } = parseArgs({ options: { samples: { type: 'string', default: '200' } } });
const samples = Number(values.samples);
const corpus = process.env.RETAIL_CORPUS ? resolve(process.env.RETAIL_CORPUS) : undefined;
if (!corpus) {
  console.error('RETAIL_CORPUS is not set: the cache benchmark replays corpus product pages');
  process.exit(0);
}
const asins = (JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as { operation: string; domain: string; request: { asin?: string } }[])
  .filter((e) => e.operation === 'product' && e.domain === 'US' && e.request.asin)
  .map((e) => e.request.asin!);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const replay = await createReplayServer({ corpusDirs: [corpus] });

async function run(label: string, handler: 'parsed' | 'html', cacheRedisUrl?: string) {
  const settings = loadResilienceConfig({ UPSTREAM_HOST_RATE: '0', UPSTREAM_HOST_CONCURRENCY: '0', PARSE_WORKERS: '1' });
  const services = createPageServices({ raw: createPageFetcher({ origin: replay.origin, timeoutMs: 30_000 }), settings, cacheRedisUrl });
  const core = await startCore({
    pages: services.pages,
    ...(handler === 'parsed' ? { parsedPages: services.parsedPages, parsePool: services.parsePool } : {}),
  });
  const client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
  const headers = { authorization: `Bearer ${core.token}` };
  await client.getProduct({ asin: asins[0]! }, { headers }); // warm: connection, worker boot
  await new Promise((r) => setTimeout(r, 200));
  const miss: number[] = [];
  for (let i = 1; i < asins.length; i++) {
    const t = performance.now();
    await client.getProduct({ asin: asins[i]! }, { headers }).catch(() => undefined);
    miss.push(performance.now() - t);
  }
  const hit: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    await client.getProduct({ asin: asins[0]! }, { headers });
    hit.push(performance.now() - t);
  }
  console.log(`| ${label} | ${handler === 'html' ? 'HTML entry, re-parse per call' : 'parsed record (the core as wired)'} | ${miss.length} | ${pct(miss, 50).toFixed(1)} | ${pct(miss, 95).toFixed(1)} | ${hit.length} | ${pct(hit, 50).toFixed(2)} | ${pct(hit, 95).toFixed(2)} |`);
  await core.stop();
  await services.close();
}

console.log('| store | GetProduct handler | misses | miss p50 ms | miss p95 ms | hits | hit p50 ms | hit p95 ms |');
console.log('|---|---|---|---|---|---|---|---|');
for (const handler of ['parsed', 'html'] as const) {
  await run('memory LRU', handler);
  if (!redisMissing()) {
    const redis = await startRedis();
    await run('Redis (local)', handler, redis.url);
    await redis.stop();
  }
}
await replay.close();
