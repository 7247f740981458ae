/**
 * What re-parsing one archived page costs (docs/page-archive.md, Repairing history): the corpus's
 * US product pages, brotli-compressed as the archive keeps them, sent to a real core's
 * PageArchiveService.ReparseArchivedPage over gRPC on loopback, one at a time, as the job sends
 * them. Reports the median and p90 wall time per page; the parse itself dominates.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/reparse-page.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { PageArchiveService } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { startCore } from '../test/harness/core.js';

const corpus = process.env.RETAIL_CORPUS;
if (!corpus) throw new Error('set RETAIL_CORPUS to the corpus directory');
const entries = (JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as Array<{ operation: string; domain: string; page: string; url: string }>)
  .filter((e) => e.operation === 'product' && e.domain === 'US');
const pages = entries.map((e) => ({
  url: e.url,
  identifier: /\/dp\/([A-Z0-9]{10})/.exec(e.url)?.[1] ?? '',
  body: brotliCompressSync(readFileSync(join(corpus, e.page)), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
})).filter((p) => p.identifier);

const core = await startCore();
const client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
const reparse = (page: (typeof pages)[number]) =>
  client.unaryCall(PageArchiveService.method.reparseArchivedPage, { marketplace: 'US', kind: 'product', identifier: page.identifier, url: page.url, status: 200, encoding: 'br', body: page.body }, { requestId: 'bench' });
for (const page of pages) await reparse(page); // warm-up: the parse workers start
const times: number[] = [];
let read = 0;
for (let round = 0; round < 3; round++) {
  for (const page of pages) {
    const start = performance.now();
    const answer = await reparse(page);
    times.push(performance.now() - start);
    if (answer.product) read += 1;
  }
}
await core.stop();
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(1);
console.log(`${pages.length} US product pages × 3: median ${at(0.5)} ms, p90 ${at(0.9)} ms per page; ${read}/${times.length} read a product`);
