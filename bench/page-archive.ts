/**
 * The page archive's cost per page (issue 23 part 5, docs/page-archive.md "Cost").
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/page-archive.ts [--runs 5]
 *
 * For every product, search, offers and reviews page of the project's fixtures and of the real corpus:
 * the bytes after brotli (quality 5, what the archive uses) and gzip (level 6), and the CPU of each
 * compression as a ratio of the parse of the same page in the same run (the machine is shared: only
 * ratios travel). Each time is the median of `runs`, after a warm-up round. Then what 10,000 hourly
 * watches cost per day: each refresh fetches one product page (GetProduct and GetSalesEstimate share
 * it), 240,000 pages a day, all archived (reason watch-refresh).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BROTLI_QUALITY } from '../core/src/archive/compress-page.js';
import { findMarketplaceByCode, type DomainCode } from '../core/src/marketplaces/index.js';
import { runParser, type ParserId } from '../core/src/workers/parser-registry.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../test/fixtures/pages');
const corpus = process.env.RETAIL_CORPUS ? resolve(process.env.RETAIL_CORPUS) : undefined;
if (!corpus) console.error('RETAIL_CORPUS is not set: measuring the fixtures only');

interface Entry { operation: string; domain: string; page: string; request: Record<string, unknown> }
const PARSERS: Record<string, ParserId> = { product: 'product', search: 'search', offers: 'offers', reviews: 'reviews' };

function pagesOf(root: string, source: string) {
  const entries = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8')) as Entry[];
  return entries
    .filter((e) => PARSERS[e.operation] && findMarketplaceByCode(e.domain as DomainCode))
    .map((e) => ({ source, kind: e.operation, html: readFileSync(join(root, e.page), 'utf8'), parser: PARSERS[e.operation]!, args: { ...e.request, domain: e.domain as DomainCode, page: 1 } }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
function cpuMs(work: () => unknown): number {
  const times: number[] = [];
  work();
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
}
const brotli = (text: Buffer) => brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: text.length } });
const gzip = (text: Buffer) => gzipSync(text, { level: 6 });

const pages = [...pagesOf(fixtures, 'fixtures'), ...(corpus ? pagesOf(corpus, 'corpus') : [])];
const rows = pages.map((p) => {
  const text = Buffer.from(p.html, 'utf8');
  const parseMs = cpuMs(() => {
    try {
      runParser(p.parser, p.html, p.args);
    } catch {
      // An unparseable page still costs its parse attempt (and is archived).
    }
  });
  return { ...p, raw: text.length, br: brotli(text).length, gz: gzip(text).length, parseMs, brMs: cpuMs(() => brotli(text)), gzMs: cpuMs(() => gzip(text)) };
});

function summary(label: string, of: typeof rows) {
  if (of.length === 0) return;
  const m = (f: (r: (typeof rows)[number]) => number) => median(of.map(f));
  console.log(`${label.padEnd(22)} pages ${String(of.length).padStart(3)}  raw ${(m((r) => r.raw) / 1024).toFixed(0).padStart(5)} KiB  br ${(m((r) => r.br) / 1024).toFixed(1).padStart(6)} KiB (${(m((r) => r.br / r.raw) * 100).toFixed(1)} %)  gzip ${(m((r) => r.gz) / 1024).toFixed(1).padStart(6)} KiB (${(m((r) => r.gz / r.raw) * 100).toFixed(1)} %)  CPU/parse: br ${m((r) => r.brMs / r.parseMs).toFixed(2)}  gzip ${m((r) => r.gzMs / r.parseMs).toFixed(2)}  (parse ${m((r) => r.parseMs).toFixed(1)} ms)`);
}
console.log(`medians per page; CPU as a ratio of the same page's parse (runs ${runs})`);
for (const source of ['fixtures', 'corpus']) for (const kind of Object.keys(PARSERS)) summary(`${source} ${kind}`, rows.filter((r) => r.source === source && r.kind === kind));
const products = rows.filter((r) => r.kind === 'product' && r.source === (corpus ? 'corpus' : 'fixtures'));
if (products.length > 0) {
  const perDay = 10_000 * 24;
  const br = median(products.map((r) => r.br));
  const brMs = median(products.map((r) => r.brMs));
  const gz = median(products.map((r) => r.gz));
  const gzMs = median(products.map((r) => r.gzMs));
  console.log(`10,000 hourly watches: ${perDay} product pages a day`);
  console.log(`  brotli q${BROTLI_QUALITY}: ${((br * perDay) / 1e9).toFixed(2)} GB/day (${((br * perDay * 30) / 1e9).toFixed(0)} GB for 30 days), ${((brMs * perDay) / 1000 / 60).toFixed(1)} CPU-minutes/day (this machine)`);
  console.log(`  gzip 6:     ${((gz * perDay) / 1e9).toFixed(2)} GB/day (${((gz * perDay * 30) / 1e9).toFixed(0)} GB for 30 days), ${((gzMs * perDay) / 1000 / 60).toFixed(1)} CPU-minutes/day (this machine)`);
}
