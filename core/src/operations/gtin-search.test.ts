import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ErrorReason } from '@retail/contract';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { marketplaceByCode } from '../marketplaces/index.js';
import { asGtin14, resolveGtinBySearch } from './gtin-search.js';
import type { OperationContext } from './types.js';
import type { FetchedPage, PageRequest } from '../pages/types.js';

/*
 * GTIN → ASIN through search over an in-memory fetcher serving the project's fixtures: a UPC whose
 * search page has a sponsored card and two organic candidates, only the second of which carries
 * the UPC in its product-details table.
 */

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/gtin/${path}`, import.meta.url)), 'utf8');
const retrievedAt = new Date('2026-01-02T03:04:05Z');

const PAGES: Record<string, string> = {
  '/s?k=012345678905': fixture('s-k-012345678905-us.html'),
  '/s?k=0012345678905': fixture('s-k-012345678905-us.html'),
  '/s?k=036000291452': fixture('s-k-036000291452-us.html'),
  '/dp/B0FXGTIN01': fixture('dp-B0FXGTIN01-other-upc.html'),
  '/dp/B0FXGTIN02': fixture('dp-B0FXGTIN02-matching-upc.html'),
};

function contextWith(pages: Record<string, string | { status: number; html: string }>) {
  const requests: string[] = [];
  const ctx: OperationContext = {
    marketplace: marketplaceByCode('US'),
    signal: new AbortController().signal,
    logger: pino({ level: 'silent' }),
    requestId: 'test',
    pages: {
      async fetchPage(request: PageRequest): Promise<FetchedPage> {
        const key = request.query ? `${request.path}?${new URLSearchParams(request.query as Record<string, string>).toString()}` : request.path;
        requests.push(key);
        const page = pages[key];
        const { status, html } = page === undefined ? { status: 404, html: '<html>dogs</html>' } : typeof page === 'string' ? { status: 200, html: page } : page;
        return { status, html, url: `${request.marketplace.origin}${key}`, retrievedAt, fromCache: false };
      },
    },
  };
  return { ctx, requests };
}

describe('GTIN → ASIN through marketplace search', () => {
  it('verifies organic candidates in order and answers the one whose UPC row matches', async () => {
    const { ctx, requests } = contextWith(PAGES);
    const res = await resolveGtinBySearch('012345678905', 'UPC-A', ctx);
    expect(res.asin).toBe('B0FXGTIN02');
    // The sponsored card is never a candidate; the first organic one is checked and refused.
    expect(requests).toEqual(['/s?k=012345678905', '/dp/B0FXGTIN01', '/dp/B0FXGTIN02']);
    expect(res.sources).toHaveLength(2);
  });

  it('an EAN-13 that wraps the UPC (leading 0) names the same product', async () => {
    const { ctx } = contextWith(PAGES);
    expect((await resolveGtinBySearch('0012345678905', 'EAN-13', ctx)).asin).toBe('B0FXGTIN02');
  });

  it('answers null when no candidate carries the GTIN (a vanished candidate page is skipped)', async () => {
    const { ctx, requests } = contextWith(PAGES);
    const res = await resolveGtinBySearch('036000291452', 'UPC-A', ctx);
    expect(res.asin).toBeNull();
    expect(requests).toEqual(['/s?k=036000291452', '/dp/B0FXGTIN02', '/dp/B0FXGTIN03']);
  });

  it('answers null for a search without results, and fails on a broken search page', async () => {
    const empty = contextWith({ '/s?k=4006381333931': '<html><body><div class="s-no-results">No results</div></body></html>' });
    expect((await resolveGtinBySearch('4006381333931', 'EAN-13', empty.ctx)).asin).toBeNull();
    const broken = contextWith({ '/s?k=4006381333931': { status: 500, html: 'oops' } });
    await expect(resolveGtinBySearch('4006381333931', 'EAN-13', broken.ctx)).rejects.toSatisfy(
      (e: unknown) => e instanceof CoreError && e.reason === ErrorReason.UPSTREAM_ERROR,
    );
  });

  it('compares identifiers as GTIN-14', () => {
    expect(asGtin14('012345678905')).toBe('00012345678905');
    expect(asGtin14('0012345678905')).toBe('00012345678905');
    expect(asGtin14('96385074')).toBe('00000096385074');
    expect(asGtin14('ABC')).toBeUndefined();
  });
});
