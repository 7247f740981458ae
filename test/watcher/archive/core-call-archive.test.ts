/**
 * The watch refresh's mark through a real gRPC call: a GetProduct that carries
 * `x-retail-archive: watch-refresh` keeps its page with what the real product parser read; the same
 * call without the mark keeps nothing (sample 0).
 */
import { readFileSync } from 'node:fs';
import { createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { ARCHIVE_METADATA_KEY, Domain, RetailService, WATCH_REFRESH_ARCHIVE } from '@retail/contract';
import { createMemoryPageArchiveStream } from '@retail/contract/page-archive-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageArchiveTap } from '../../../core/src/archive/page-archive-tap.js';
import { createParsedPageSource } from '../../../core/src/cache/parsed-pages.js';
import type { FetchedPage, PageFetcher } from '../../../core/src/pages/types.js';
import { startCore, type StartedCore } from '../../harness/core.js';

const PAGE = readFileSync(new URL('../../fixtures/pages/pages/com/product/dp-B0FXTUS001-modern-espresso.html', import.meta.url), 'utf8');
const marketplace: PageFetcher = {
  fetchPage: async (request): Promise<FetchedPage> => ({ status: 200, html: PAGE, url: `https://www.amazon.com${request.path}`, retrievedAt: new Date(), fromCache: false, contentType: 'text/html' }),
};

describe('the archive mark on a core call', () => {
  const stream = createMemoryPageArchiveStream();
  let core: StartedCore;
  beforeAll(async () => {
    const parsedPages = createParsedPageSource({ fetcher: marketplace, archive: createPageArchiveTap({ outbox: stream.outbox, sampleRate: 0 }) });
    core = await startCore({ pages: marketplace, parsedPages });
  });
  afterAll(() => core?.stop());

  const client = (headers: Record<string, string>) => {
    const withHeaders: Interceptor = (next) => (request) => {
      request.header.set('authorization', `Bearer ${core.token}`);
      for (const [name, value] of Object.entries(headers)) request.header.set(name, value);
      return next(request);
    };
    return createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl, interceptors: [withHeaders] }));
  };
  /** Waits up to 2 s for a kept page (compression runs on the thread pool), 200 ms when none is expected. */
  const archived = async (expected = true) => (await stream.inbox().read({ pending: false, count: 10, blockMs: expected ? 2_000 : 200 })).map((e) => e.page!);

  it('an unmarked call keeps nothing; a marked one keeps its page with the parsed product', async () => {
    await client({}).getProduct({ asin: 'B0FXTUS001', domain: Domain.US });
    // Complete (title, price, availability), unmarked, not sampled.
    expect((await archived(false)).map((p) => [p.reason, p.missing])).toEqual([]);
    // A different ASIN: the first call's page is in the page cache and would not be fetched again.
    const product = await client({ [ARCHIVE_METADATA_KEY]: WATCH_REFRESH_ARCHIVE }).getProduct({ asin: 'B0FXTUS002', domain: Domain.US });
    const [kept] = await archived();
    expect(kept).toMatchObject({ reason: 'watch-refresh', identifier: 'B0FXTUS002', kind: 'product', domain: 'US' });
    expect(JSON.parse(kept!.parsed!).product.value.product.title).toBe(product.retailProduct!.title);
  });
});
