/**
 * What re-parsing one archived page costs (docs/page-archive.md, Repairing history): the corpus's
 * US product pages, brotli-compressed as the archive keeps them, sent to a real core's
 * PageArchiveService.ReparseArchivedPage over gRPC on loopback, one at a time (a job sends
 * REPARSE_CONCURRENCY at once). Reports the median and p90 wall time per page; the parse itself
 * dominates. A whole job's
 * pages a second, one page at a time against several, is bench/reparse-job.ts.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/reparse-page.ts
 */
import { PageArchiveService } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { startCore } from '../test/harness/core.js';
import { corpusProductPages } from './corpus-product-pages.js';

const pages = corpusProductPages();

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
