/**
 * What field-health accounting costs a parse (issue 23: at most 2 %), as a ratio measured in one run.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/field-health.ts [--runs 7] [--warmup 5] [--redis]
 *
 * For every corpus page an operation reads (product, search, offers, reviews, best sellers, seller
 * storefront) through the parser the operation uses: the parse's time (median of `runs`) and what
 * the call pays for its accounting, `record()` on the record it produced (the declared fields'
 * presence, queued; median of `runs`). Off the call path, a flush sends the queued parses of a
 * (marketplace, kind) to the window in one batch: its CPU (process.cpuUsage, not the round trip,
 * which no call waits for) is measured per batch of 1 (a quiet core: every parse pays a whole
 * flush) and of 10, to the memory window and with `--redis` to a real redis-server. The table gives
 * per kind the median over the pages of (record + its share of a flush) / parse.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createCacheRedisClient } from '../core/src/cache/redis-store.js';
import { createFieldHealth, type FieldHealth } from '../core/src/health/field-health.js';
import { createMemoryFieldWindow } from '../core/src/health/field-window.js';
import { createRedisFieldWindow } from '../core/src/health/field-window-redis.js';
import { findMarketplaceByCode, type DomainCode } from '../core/src/marketplaces/index.js';
import { runParser, type ParserId } from '../core/src/workers/parser-registry.js';
import { startRedis } from '../test/harness/redis.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, warmup: { type: 'string', default: '5' }, redis: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const corpus = process.env.RETAIL_CORPUS ? resolve(process.env.RETAIL_CORPUS) : undefined;
if (!corpus) {
  console.error('RETAIL_CORPUS is not set: the field-health benchmark needs the corpus pages');
  process.exit(0);
}

interface Entry { operation: string; domain: string; page: string; request: Record<string, unknown> }
const OPERATION_PARSER: Record<string, ParserId> = {
  product: 'product-page',
  search: 'search-page',
  offers: 'offers-page',
  reviews: 'reviews-page',
  bestsellers: 'bestsellers',
  seller: 'seller-storefront',
};
const pages = (JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as Entry[]).flatMap((e) => {
  const parser = OPERATION_PARSER[e.operation];
  if (!parser || !findMarketplaceByCode(e.domain)) return [];
  const r = e.request;
  const args = { domain: e.domain as DomainCode, asin: String(r.asin ?? ''), sellerId: String(r.sellerId ?? ''), categoryId: r.categoryId, page: typeof r.page === 'number' ? r.page : 1 };
  const html = readFileSync(join(corpus, e.page), 'utf8');
  const parse = () => {
    try {
      return { record: runParser(parser, html, args) };
    } catch {
      return 'unparseable' as const;
    }
  };
  return [{ kind: e.operation, domain: e.domain, parser, parse }];
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

/** ms of this process's CPU (user + system) that `f` takes. */
async function cpu(f: () => Promise<unknown>): Promise<number> {
  const used = process.cpuUsage();
  await f();
  const spent = process.cpuUsage(used);
  return (spent.user + spent.system) / 1000;
}

/** What the call pays: record() (presence of the declared fields, queued), per parse, over 200 calls. */
function recordCost(health: FieldHealth, page: (typeof pages)[number], outcome: ReturnType<(typeof pages)[number]['parse']>): number {
  const n = 200;
  const spent = time(() => {
    for (let i = 0; i < n; i++) health.record(page.domain, page.parser, outcome);
  });
  return spent / n;
}

/** What a flush costs off the call path: CPU per batch of `size` parses, over 100 batches. */
async function flushCost(health: FieldHealth, size: number): Promise<number> {
  const page = pages.find((p) => p.kind === 'product')!;
  const outcome = page.parse();
  let total = 0;
  for (let b = 0; b < 100; b++) {
    for (let i = 0; i < size; i++) health.record(page.domain, page.parser, outcome);
    total += await cpu(() => health.flush());
  }
  return total / 100;
}

async function measure(label: string, health: FieldHealth) {
  for (let round = 0; round < warmup; round++) {
    for (const page of pages) recordCost(health, page, page.parse());
    await health.flush();
  }
  const [batchOf1, batchOf10] = [await flushCost(health, 1), await flushCost(health, 10)];
  const byKind = new Map<string, { parse: number[]; record: number[] }>();
  for (const page of pages) {
    const outcome = page.parse();
    const parse: number[] = [];
    const record: number[] = [];
    for (let i = 0; i < runs; i++) {
      parse.push(time(page.parse));
      record.push(recordCost(health, page, outcome));
      await health.flush();
    }
    const row = byKind.get(page.kind) ?? { parse: [], record: [] };
    row.parse.push(median(parse));
    row.record.push(median(record));
    byKind.set(page.kind, row);
  }
  console.log(`\nField-health accounting per parse, ${label} (${runs} runs per page after ${warmup} warm-up rounds; node ${process.version})`);
  console.log(`A flush costs ${batchOf1.toFixed(3)} ms of CPU for a batch of 1 parse, ${batchOf10.toFixed(3)} ms for a batch of 10.`);
  console.log('| kind | pages | parse median ms | record() median ms | record() / parse | with a flush of 1 | with a flush per 10 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [kind, r] of byKind) {
    const ratio = (extra: number) => `${(100 * median(r.record.map((rec, i) => (rec + extra) / r.parse[i]!))).toFixed(2)} %`;
    console.log(`| ${kind} | ${r.parse.length} | ${median(r.parse).toFixed(2)} | ${median(r.record).toFixed(4)} | ${ratio(0)} | ${ratio(batchOf1)} | ${ratio(batchOf10 / 10)} |`);
  }
}

await measure('memory window', createFieldHealth({ store: createMemoryFieldWindow(), flushMs: 60_000 }));
if (values.redis) {
  const redis = await startRedis();
  const client = createCacheRedisClient(redis.url, 1_000);
  await new Promise((r) => client.once('ready', r));
  const health = createFieldHealth({ store: createRedisFieldWindow({ client }), flushMs: 60_000 });
  await measure('Redis window', health);
  await health.close();
  await redis.stop();
}
