/**
 * The core's PageArchiveService.ReparseArchivedPage over gRPC (docs/page-archive.md, Repairing
 * history): an archived page is parsed once per call, though both GetProduct and GetSalesEstimate
 * read it (the live path shares one parse through the parsed-page cache, which this call goes
 * without); its answer carries the product, the sales rank and the parser's version.
 */
import { gzipSync } from 'node:zlib';
import { PageArchiveService } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parserVersion, runParser, type ParseArgs, type ParserId } from '../../core/src/workers/parser-registry.js';
import type { ParsePool } from '../../core/src/workers/pool.js';
import { startCore, type StartedCore } from '../harness/core.js';
import { timelinePage } from '../replay/timeline-page.js';

/** The real parsers on this thread (as PARSE_WORKERS=0), counting each parser's runs. */
const parses: string[] = [];
const countingPool: ParsePool = {
  size: 0,
  queued: 0,
  parse: async <T>(parser: ParserId, html: string, args: ParseArgs): Promise<T> => {
    parses.push(parser);
    return runParser(parser, html, args) as T;
  },
  close: async () => undefined,
};

let core: StartedCore;
beforeAll(async () => {
  core = await startCore({ parsePool: countingPool });
}, 60_000);
afterAll(async () => core?.stop());

describe('ReparseArchivedPage', () => {
  it('parses the archived page once for both the product and its sales rank', async () => {
    const asin = 'B0PARSEONE';
    const client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 30_000 });
    const answer = await client.unaryCall(PageArchiveService.method.reparseArchivedPage, {
      marketplace: 'US', kind: 'product', identifier: asin, url: `https://www.amazon.com/dp/${asin}`, status: 200, encoding: 'gzip',
      body: gzipSync(timelinePage(asin, { inStock: true, price: 12, sellerId: 'A1TIMELINEACME', sellerName: 'Acme Direct' })),
    }, { requestId: 'parse-once' });
    expect(answer.parser).toBe(`product-page@${parserVersion('product-page')}`);
    expect(answer.product?.asin).toBe(asin);
    expect(answer.sales?.salesEstimate?.bestSellersRank).toBe(4321n);
    expect(parses).toEqual(['product-page']);
  });
});
