/**
 * Parse speed and event-loop health (issue 4, docs/resilience.md).
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/parse.ts [--runs 5] [--warmup 10] [--burst 20]
 *
 * 1. Per page kind: parse + extract time of every corpus page of that kind (median and p95 over the
 *    pages, each page's time the median of `runs`), and its ratio to a bare htmlparser2 tokenize
 *    (`new Parser({})`) of the same page in the same run (median of the per-page ratios), and its
 *    ratio to cheerio's `load()` alone (the parsers' DOM build, `loadHtml`: htmlparser2 + domhandler),
 *    which tells how much of the tokenize ratio is building the DOM and how much is extraction.
 *    Before timing, `warmup` rounds over all pages run every parser, the tokenize and the load, so
 *    the numbers are a serving process's steady state: without it a kind with one corpus page
 *    (best sellers, variants) is timed on its first few parses, while V8 still interprets its
 *    parser and the tokenize it is compared with is already optimized.
 * 2. Event-loop delay (monitorEventLoopDelay) while `burst` concurrent cold product requests go
 *    through the real upstream client + replay server + parsed-page source, parsing in-process vs on
 *    the worker pool.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Parser } from 'htmlparser2';
import { createParsedPageSource } from '../core/src/cache/parsed-pages.js';
import { loadHtml } from '../core/src/parsers/common/dom.js';
import { findMarketplaceByCode, type DomainCode } from '../core/src/marketplaces/index.js';
import { createPageFetcher } from '../core/src/upstream/index.js';
import { createParsePool } from '../core/src/workers/pool.js';
import { runParser, type ParserId } from '../core/src/workers/parser-registry.js';
import { freePort } from '../test/harness/redis.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, warmup: { type: 'string', default: '10' }, burst: { type: 'string', default: '20' } },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const burst = Number(values.burst);
const corpus = process.env.RETAIL_CORPUS ? resolve(process.env.RETAIL_CORPUS) : undefined;
if (!corpus) {
  console.error('RETAIL_CORPUS is not set: the parse benchmark needs the corpus pages');
  process.exit(0);
}

interface Entry { id: string; operation: string; domain: string; url: string; page: string; request: Record<string, unknown> }
const entries = (JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as Entry[]).filter((e) => findMarketplaceByCode(e.domain as DomainCode));

/** Corpus operation → registered parser and its arguments. */
function task(e: Entry): { parser: ParserId; args: { domain: DomainCode; [k: string]: unknown } } | undefined {
  const domain = e.domain as DomainCode;
  const r = e.request;
  const page = typeof r.page === 'number' ? r.page : 1;
  switch (e.operation) {
    case 'product': return { parser: 'product', args: { domain, asin: String(r.asin ?? '') } };
    case 'variants': return { parser: 'variants', args: { domain, asin: String(r.asin ?? '') } };
    case 'offers': return { parser: 'offers', args: { domain, asin: String(r.asin ?? ''), page } };
    case 'reviews': return { parser: 'reviews', args: { domain, asin: String(r.asin ?? ''), page } };
    case 'search': return { parser: 'search', args: { domain, page } };
    case 'bestsellers': return { parser: 'bestsellers', args: { domain, categoryId: r.categoryId, page } };
    case 'seller': return { parser: 'seller-storefront', args: { domain, sellerId: String(r.sellerId ?? ''), page } };
    default: return undefined;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const tokenize = (html: string) => {
  const p = new Parser({});
  p.write(html);
  p.end();
};

async function startReplayProcess(dir: string): Promise<{ origin: string; close(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'test/replay/cli.ts', '--corpus', dir, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  if (!String(line).includes('replay server on')) throw new Error(`replay server did not start: ${String(line)}`);
  return { origin: `http://127.0.0.1:${port}`, close: () => void child.kill('SIGTERM') };
}

// 1. Parse + extract vs tokenize, per kind.
const byKind = new Map<string, { parse: number[]; ratio: number[]; loadRatio: number[]; loadOverTokenize: number[]; kb: number[] }>();
const pages = entries.flatMap((e) => {
  const t = task(e);
  if (!t) return [];
  const html = readFileSync(join(corpus, e.page), 'utf8');
  const parseOnce = () => {
    try {
      runParser(t.parser, html, t.args);
    } catch {
      /* a page the parser refuses still costs its parse */
    }
  };
  return [{ e, html, parseOnce }];
});
for (let round = 0; round < warmup; round++) {
  for (const { html, parseOnce } of pages) {
    parseOnce();
    tokenize(html);
    loadHtml(html);
  }
}
for (const { e, html, parseOnce } of pages) {
  for (let i = 0; i < 2; i++) {
    parseOnce();
    tokenize(html);
    loadHtml(html);
  }
  const p: number[] = [];
  const k: number[] = [];
  const l: number[] = [];
  for (let i = 0; i < runs; i++) {
    p.push(time(parseOnce));
    k.push(time(() => tokenize(html)));
    l.push(time(() => loadHtml(html)));
  }
  const row = byKind.get(e.operation) ?? { parse: [], ratio: [], loadRatio: [], loadOverTokenize: [], kb: [] };
  row.parse.push(median(p));
  row.ratio.push(median(p) / median(k));
  row.loadRatio.push(median(p) / median(l));
  row.loadOverTokenize.push(median(l) / median(k));
  row.kb.push(Buffer.byteLength(html) / 1024);
  byKind.set(e.operation, row);
}
console.log(`\nParse + extract per page kind (${runs} runs per page after ${warmup} warm-up rounds; node ${process.version})`);
console.log('| kind | pages | median KB | parse median ms | parse p95 ms | ratio to tokenize (median) | ratio max | ratio to load() (median) | load() / tokenize |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [kind, r] of byKind) {
  console.log(
    `| ${kind} | ${r.parse.length} | ${median(r.kb).toFixed(0)} | ${median(r.parse).toFixed(1)} | ${pct(r.parse, 95).toFixed(1)} | ${median(r.ratio).toFixed(2)}× | ${Math.max(...r.ratio).toFixed(2)}× | ${median(r.loadRatio).toFixed(2)}× | ${median(r.loadOverTokenize).toFixed(2)}× |`,
  );
}

// 2. Event-loop delay under a burst of cold product requests.
const products = entries.filter((e) => e.operation === 'product' && e.domain === 'US').slice(0, burst);
// The replay server runs in its own process: its file reads and writes must not count as this
// process's event-loop delay.
const replay = await startReplayProcess(corpus);
/** workers: -1 = fetch only (no parse: the baseline of the fetch path itself), 0 = in-process. */
async function burstRun(workers: number) {
  const pool = createParsePool({ size: Math.max(0, workers) });
  if (workers > 0) await pool.parse('sales', '<html></html>', { domain: 'US' }); // workers booted
  const raw = createPageFetcher({ origin: replay.origin, timeoutMs: 30_000 });
  const source = createParsedPageSource({ fetcher: raw });
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: burst }, (_, i) => {
      const e = products[i % products.length]!;
      const asin = String(e.request.asin);
      const m = findMarketplaceByCode('US')!;
      // A different query per request keeps every request cold even when pages repeat.
      const request = { marketplace: m, path: `/dp/${asin}`, query: { n: String(i) }, kind: 'product' as const, signal: AbortSignal.timeout(60_000) };
      return source
        .parsed(request, { id: 'product', version: 'bench' }, (page) => (workers < 0 ? page.html.length : pool.parse('product', page.html, { domain: 'US', asin })))
        .catch(() => undefined);
    }),
  );
  const wall = performance.now() - started;
  histogram.disable();
  await Promise.all([pool.close(), raw.close()]);
  return { wall, p50: histogram.percentile(50) / 1e6, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
}
console.log(`\nEvent-loop delay during ${burst} concurrent cold product requests (${products.length} distinct US pages; replay server in another process)`);
console.log('| parsing | workers | wall ms | loop delay p50 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|---|');
for (const workers of [-1, 0, 1, 2]) {
  const r = await burstRun(workers);
  console.log(`| ${workers < 0 ? 'none (fetch only)' : workers === 0 ? 'in-process' : 'worker pool'} | ${workers} | ${r.wall.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} |`);
}
replay.close();
