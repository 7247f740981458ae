import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { create } from '@bufbuild/protobuf';
import {
  CacheStatus,
  Domain,
  ErrorReason,
  GetAuthorRequestSchema,
  GetAutocompleteSuggestionsRequestSchema,
  GetBestSellerCategoriesRequestSchema,
  GetCategoryRequestSchema,
  GetCategoryTaxonomyRequestSchema,
  GetDealsRequestSchema,
  SearchSort,
} from '@retail/contract';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { marketplaceByCode, MARKETPLACES } from '../marketplaces/index.js';
import { hostForKind, isAllowedHost } from '../pages/hosts.js';
import { validateRequest } from './index.js';
import { getAuthor } from './author.js';
import { getAutocompleteSuggestions, SUGGESTIONS_PATH, suggestionsQuery } from './autocomplete.js';
import { getBestSellerCategories } from './bestseller-categories.js';
import { getCategoryTaxonomy } from './categories.js';
import { categoryQuery, getCategory } from './category.js';
import { dealsQuery, getDeals } from './deals.js';
import type { OperationContext } from './types.js';
import type { FetchedPage, PageRequest } from '../pages/types.js';

/*
 * The six catalogue handlers over an in-memory page fetcher: the marketplace URL each builds from
 * validated parameters, the page outcomes mapped to errors, and the response they answer.
 */

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/${path}`, import.meta.url)), 'utf8');
const retrievedAt = new Date('2026-01-02T03:04:05Z');

function contextWith(code: 'US' | 'DE' | 'JP', pages: Record<string, { status?: number; html: string }>) {
  const requests: PageRequest[] = [];
  const ctx: OperationContext = {
    marketplace: marketplaceByCode(code),
    signal: new AbortController().signal,
    logger: pino({ level: 'silent' }),
    requestId: 'test',
    pages: {
      async fetchPage(request: PageRequest): Promise<FetchedPage> {
        requests.push(request);
        const page = pages[request.path] ?? { status: 404, html: '<html>dogs</html>' };
        return { status: page.status ?? 200, html: page.html, url: `${request.marketplace.origin}${request.path}`, retrievedAt, fromCache: false };
      },
    },
  };
  return { ctx, requests };
}

async function reason(promise: Promise<unknown>): Promise<ErrorReason> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CoreError) return error.reason;
    throw error;
  }
  throw new Error('expected a CoreError');
}

const NOT_A_PAGE = { html: '<html><body><p>Something else entirely</p></body></html>' };

describe('autocomplete', () => {
  const request = (init: object) => validateRequest('GetAutocompleteSuggestions', create(GetAutocompleteSuggestionsRequestSchema, init));

  it('asks the marketplace suggestion host with its own marketplace id', async () => {
    const { ctx, requests } = contextWith('DE', { [SUGGESTIONS_PATH]: { html: fixture('autocomplete/suggestions-de-kaffee.json') } });
    const res = await getAutocompleteSuggestions(request({ searchTerm: 'kaffee', domain: Domain.DE }), ctx);
    expect(requests[0]).toMatchObject({ kind: 'autocomplete', path: '/api/2017/suggestions' });
    expect(requests[0]!.query).toMatchObject({ prefix: 'kaffee', mid: 'A1PA6795UKMFR9', alias: 'aps', limit: '11', 'suggestion-type': 'KEYWORD' });
    expect(hostForKind(requests[0]!.marketplace, 'autocomplete')).toBe('completion.amazon.de');
    expect(res.retailSearchAutocompleteResults?.[0]).toEqual({ suggestion: 'kaffeevollautomat' });
    expect(res.meta).toMatchObject({ cache: CacheStatus.MISS });
  });

  it('passes the search alias when given', () => {
    expect(suggestionsQuery('lego', 'toys-and-games', marketplaceByCode('US')).alias).toBe('toys-and-games');
  });

  it('every marketplace suggestion host is on its allow-list', () => {
    for (const m of MARKETPLACES) expect(isAllowedHost(m, hostForKind(m, 'autocomplete')), m.code).toBe(true);
  });

  it('a body that is not the endpoint JSON is UPSTREAM_ERROR', async () => {
    const { ctx } = contextWith('US', { [SUGGESTIONS_PATH]: NOT_A_PAGE });
    expect(await reason(getAutocompleteSuggestions(request({ searchTerm: 'x' }), ctx))).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('deals', () => {
  const request = (init: object) => validateRequest('GetDeals', create(GetDealsRequestSchema, init));

  it('builds the grid parameter from page and categories only', () => {
    expect(dealsQuery(request({}))).toBeUndefined();
    const query = dealsQuery(request({ page: 3n, categoryIds: ['172282', '1055398'] }))!;
    expect(JSON.parse(query['deals-widget']!)).toEqual({
      version: 1,
      viewIndex: 120,
      presetId: 'deals-collection-all-deals',
      departments: ['172282', '1055398'],
      sorting: 'FEATURED',
    });
  });

  it('answers the page truncated to limit', async () => {
    const { ctx, requests } = contextWith('US', { '/deals': { html: fixture('deals/deals-us.html') } });
    const res = await getDeals(request({ limit: 2n }), ctx);
    expect(requests[0]).toMatchObject({ path: '/deals', kind: 'deals' });
    expect(res.retailDeals!.productResults!.results!.map((r) => r.asin)).toEqual(['B0DLUS0001', 'B0DLUS0002']);
    expect(res.retailDeals!.productResults!.pageInfo).toMatchObject({ totalResults: 143n });
  });

  it('maps 404 to NOT_FOUND and a page that is not the deals grid to UPSTREAM_ERROR', async () => {
    expect(await reason(getDeals(request({}), contextWith('US', {}).ctx))).toBe(ErrorReason.NOT_FOUND);
    expect(await reason(getDeals(request({}), contextWith('US', { '/deals': NOT_A_PAGE }).ctx))).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('best-seller categories', () => {
  const request = (init: object) => validateRequest('GetBestSellerCategories', create(GetBestSellerCategoriesRequestSchema, init));

  it('reads the root page', async () => {
    const { ctx, requests } = contextWith('DE', { '/gp/bestsellers': { html: fixture('bestseller-categories/zgbs-de-root.html') } });
    const res = await getBestSellerCategories(request({ domain: Domain.DE }), ctx);
    expect(requests[0]).toMatchObject({ path: '/gp/bestsellers', kind: 'bestseller-categories' });
    expect(res.retailBestSellerCategories!.categories!.length).toBe(8);
  });

  it('a root page without the tree is UPSTREAM_ERROR', async () => {
    expect(await reason(getBestSellerCategories(request({}), contextWith('US', { '/gp/bestsellers': NOT_A_PAGE }).ctx))).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('category taxonomy', () => {
  const request = (init: object) => validateRequest('GetCategoryTaxonomy', create(GetCategoryTaxonomyRequestSchema, init));

  it('reads the site directory', async () => {
    const { ctx, requests } = contextWith('US', { '/gp/site-directory': { html: fixture('categories/site-directory-us.html') } });
    const res = await getCategoryTaxonomy(request({}), ctx);
    expect(requests[0]).toMatchObject({ path: '/gp/site-directory', kind: 'categories' });
    expect(res.retailProductCategoryTaxonomy!.map((n) => n.name)).toEqual(['Amazon Music', 'Electronics', 'Computers']);
  });

  it('a directory without departments is UPSTREAM_ERROR', async () => {
    expect(await reason(getCategoryTaxonomy(request({}), contextWith('US', { '/gp/site-directory': NOT_A_PAGE }).ctx))).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('author', () => {
  const request = (init: object) => validateRequest('GetAuthor', create(GetAuthorRequestSchema, init));

  it('fetches /stores/author/<ID> (upper case) with the page', async () => {
    const { ctx, requests } = contextWith('US', { '/stores/author/B0FXAUTH01': { html: fixture('author/stores-author-B0FXAUTH01-us.html') } });
    const res = await getAuthor(request({ asin: 'b0fxauth01', page: 2n }), ctx);
    expect(requests[0]).toMatchObject({ path: '/stores/author/B0FXAUTH01', query: { page: '2' }, kind: 'author' });
    expect(res.retailAuthor!.name).toBe('Jane Example');
  });

  it('maps 404 to NOT_FOUND and a page without the author name to UPSTREAM_ERROR', async () => {
    expect(await reason(getAuthor(request({ asin: 'B0NOAUTHOR' }), contextWith('US', {}).ctx))).toBe(ErrorReason.NOT_FOUND);
    const odd = contextWith('US', { '/stores/author/B0FXAUTH01': NOT_A_PAGE });
    expect(await reason(getAuthor(request({ asin: 'B0FXAUTH01' }), odd.ctx))).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('category page', () => {
  const request = (init: object) => validateRequest('GetCategory', create(GetCategoryRequestSchema, init));

  it('builds /b?node= with the sort key of the search table and the page', () => {
    expect(categoryQuery(request({ categoryId: '172541' }))).toEqual({ node: '172541' });
    expect(categoryQuery(request({ categoryId: '172541', page: 3n, sort: SearchSort.PRICE_ASCENDING }))).toEqual({ node: '172541', s: 'price-asc-rank', page: '3' });
  });

  it('answers the node with its products', async () => {
    const { ctx, requests } = contextWith('DE', { '/b': { html: fixture('category/b-node-3310781-de-page2.html') } });
    const res = await getCategory(request({ categoryId: '3310781', page: 2n, domain: Domain.DE }), ctx);
    expect(requests[0]).toMatchObject({ path: '/b', query: { node: '3310781', page: '2' }, kind: 'category' });
    expect(res.retailProductCategory).toMatchObject({ id: '3310781', name: 'Kaffee, Tee & Espresso' });
    expect(res.retailProductCategory!.productResults!.results).toHaveLength(2);
  });

  it('maps 404 to NOT_FOUND and an unreadable page to UPSTREAM_ERROR', async () => {
    expect(await reason(getCategory(request({ categoryId: '1' }), contextWith('US', {}).ctx))).toBe(ErrorReason.NOT_FOUND);
    expect(await reason(getCategory(request({ categoryId: '1' }), contextWith('US', { '/b': { html: '<html><body></body></html>' } }).ctx))).toBe(
      ErrorReason.UPSTREAM_ERROR,
    );
  });
});
