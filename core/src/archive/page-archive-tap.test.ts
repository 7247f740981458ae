import { createMemoryPageArchiveStream } from '@retail/contract/page-archive-memory';
import type { ArchivedPage } from '@retail/contract/page-archive-handoff';
import { describe, expect, it } from 'vitest';
import { failures, page, request, scriptedFetcher } from '../../test/page-doubles.js';
import { createParsedPageSource } from '../cache/parsed-pages.js';
import type { FetchedPage } from '../pages/types.js';
import { withArchiveHint } from './archive-hint.js';
import { decompressPage } from './compress-page.js';
import { createPageArchiveTap, identifierOf, parserName } from './page-archive-tap.js';
import { withRefusedPage } from './refused-page.js';

/** A seeded generator (mulberry32): the same draws on every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const v1 = { id: 'product-page', version: 7 };
const productHtml = '<html><span id="productTitle">Kettle</span><span class="a-price">$19.99</span></html>';
/** A product page's record as the product-page parser returns it (its product section parsed). */
const productRecord = (product: object) => ({ product: { ok: true, value: { product } } });
const complete = productRecord({ title: 'Kettle', price: { value: 19.99, currency: 'USD' }, isInStock: true, ratingsTotal: 12n });

function setup(script: Parameters<typeof scriptedFetcher>[0], sampleRate = 0, maxEntries = 100) {
  const stream = createMemoryPageArchiveStream(maxEntries);
  const tap = createPageArchiveTap({ outbox: stream.outbox, sampleRate, random: seeded(1) });
  const source = createParsedPageSource({ fetcher: scriptedFetcher(script), archive: tap });
  const inbox = stream.inbox();
  /**
   * The pages handed off once the background work ran: waits up to 2 s for the first (compression
   * runs on the thread pool, slow on a loaded machine), 200 ms when none is expected.
   */
  const archived = async (expected = true): Promise<ArchivedPage[]> =>
    (await inbox.read({ pending: false, count: 100, blockMs: expected ? 2_000 : 200 })).map((e) => e.page!);
  return { source, archived, tap, stream };
}

const productPage = (): FetchedPage => ({ ...page(), html: productHtml, retrievedAt: new Date('2026-11-28T10:00:00Z'), contentType: 'text/html; charset=utf-8' });

describe('the page archive tap', () => {
  it('keeps the page a watch refresh fetched, compressed, with what the parser read', async () => {
    const s = setup([productPage]);
    await withArchiveHint('watch-refresh', () => s.source.parsed(request(), v1, () => complete));
    const [kept] = await s.archived();
    expect(kept).toMatchObject({ domain: 'US', kind: 'product', identifier: 'B000000001', status: 200, parser: 'product-page@7', reason: 'watch-refresh', encoding: 'br', contentType: 'text/html; charset=utf-8' });
    expect(kept!.fetchedAt.toISOString()).toBe('2026-11-28T10:00:00.000Z');
    expect(await decompressPage(kept!.body, kept!.encoding)).toBe(productHtml);
    expect(JSON.parse(kept!.parsed!)).toEqual(productRecord({ title: 'Kettle', price: { value: 19.99, currency: 'USD' }, isInStock: true, ratingsTotal: '12' }));
  });

  it('keeps no complete interactive page when the sample is zero', async () => {
    const s = setup([productPage]);
    await s.source.parsed(request(), v1, () => complete);
    expect(await s.archived(false)).toEqual([]);
  });

  it('keeps a block page, classified blocked, though the call failed', async () => {
    const s = setup([() => withRefusedPage(failures.blocked(), { ...productPage(), html: '<form action="/errors/validateCaptcha"></form>' })]);
    await expect(s.source.parsed(request(), v1, () => complete)).rejects.toThrow('blocked');
    const [kept] = await s.archived();
    expect(kept).toMatchObject({ reason: 'blocked', identifier: 'B000000001' });
    expect(kept!.parsed).toBeUndefined();
  });

  it('keeps a page its parser could not read, as unparseable, and still fails the call', async () => {
    const s = setup([productPage]);
    await expect(s.source.parsed(request(), v1, () => { throw new Error('no title'); })).rejects.toThrow('no title');
    expect((await s.archived()).map((p) => p.reason)).toEqual(['unparseable']);
  });

  it('keeps a product page read without a price while in stock, naming the missing field', async () => {
    const s = setup([productPage]);
    await s.source.parsed(request(), v1, () => productRecord({ title: 'Kettle', isInStock: true }));
    const [kept] = await s.archived();
    expect(kept).toMatchObject({ reason: 'incomplete', missing: ['price'] });
  });

  it('an unavailable product without a price is complete', async () => {
    const s = setup([productPage]);
    await s.source.parsed(request(), v1, () => productRecord({ title: 'Kettle', isInStock: false }));
    expect(await s.archived(false)).toEqual([]);
  });

  it('samples the other pages at the configured rate, by the injected draws', () => {
    const tap = createPageArchiveTap({ outbox: createMemoryPageArchiveStream().outbox, sampleRate: 0.1, random: seeded(42) });
    const draws = seeded(42);
    const input = { request: request(), parser: v1, page: productPage(), hint: undefined, record: complete };
    let kept = 0;
    let expected = 0;
    for (let i = 0; i < 2000; i++) {
      if (tap.decide(input)?.reason === 'sample') kept++;
      if (draws() < 0.1) expected++;
    }
    expect(kept).toBe(expected);
    expect(kept).toBeGreaterThan(150);
    expect(kept).toBeLessThan(250);
  });

  it('names a page by what it was read for', () => {
    const of = (path: string, query?: Record<string, string>) => identifierOf({ ...request(path), ...(query ? { query } : {}) });
    expect([of('/dp/b0archive1'), of('/product-reviews/B0ARCHIVE2'), of('/gp/product/ajax', { asin: 'B0ARCHIVE3' }), of('/s', { k: 'kettle' }), of('/sp', { seller: 'A1SELLER' }), of('/b', { node: '3310781' }), of('/deals')])
      .toEqual(['B0ARCHIVE1', 'B0ARCHIVE2', 'B0ARCHIVE3', 'kettle', 'A1SELLER', '3310781', '/deals']);
  });

  it('a full hand-off drops the oldest page and reports it, without waiting for a reader', async () => {
    const stream = createMemoryPageArchiveStream(2);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await stream.outbox.add({ id: `p${i}` } as ArchivedPage));
    expect(results.map((r) => r.dropped)).toEqual([false, false, true]);
    const left = await stream.inbox().read({ pending: false, count: 10, blockMs: 0 });
    expect(left.map((e) => e.page!.id)).toEqual(['p1', 'p2']);
  });
});

describe('the parser an archived page names', () => {
  it('is id@version, without the arguments a page-cache reference carries after the version (re-parsing compares versions)', () => {
    expect(parserName({ id: 'product-page', version: '3:[["asin","B0FXTIME01"]]' })).toBe('product-page@3');
    expect(parserName({ id: 'product', version: 7 })).toBe('product@7');
  });
});
