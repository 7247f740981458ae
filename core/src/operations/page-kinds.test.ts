import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { create } from '@bufbuild/protobuf';
import {
  CacheStatus,
  Domain,
  ErrorReason,
  GetBestSellersRequestSchema,
  GetProductOffersRequestSchema,
  GetProductVariantsRequestSchema,
  GetProductReviewsRequestSchema,
  GetSellerRequestSchema,
  GetStockEstimateRequestSchema,
  GetSalesEstimateRequestSchema,
  ReviewRating,
  SearchProductsRequestSchema,
  SearchSort,
} from '@retail/contract';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { marketplaceByCode } from '../marketplaces/index.js';
import { validateRequest } from './index.js';
import { getBestSellers } from './bestsellers.js';
import { getProductOffers } from './offers.js';
import { getProductVariants } from './variants.js';
import { createGetProductReviews, SESSION_REQUIRED_MESSAGE } from './reviews.js';
import { getSalesEstimate } from './sales.js';
import { searchProducts, searchQuery } from './search.js';
import { getSeller } from './seller.js';
import { getStockEstimate } from './stock.js';
import type { OperationContext } from './types.js';
import type { FetchedPage, PageRequest } from '../pages/types.js';

/*
 * Handlers over an in-memory page fetcher (the PageFetcher interface is the seam the upstream
 * client implements): which marketplace URL each handler builds, how page outcomes map to errors,
 * and what the response carries. Pages are the project's fixtures.
 */

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/${path}`, import.meta.url)), 'utf8');
const retrievedAt = new Date('2026-01-02T03:04:05Z');

function contextWith(pages: Record<string, { status?: number; html: string }>) {
  const requests: PageRequest[] = [];
  const ctx: OperationContext = {
    marketplace: marketplaceByCode('US'),
    signal: new AbortController().signal,
    logger: pino({ level: 'silent' }),
    requestId: 'test',
    pages: {
      async fetchPage(request: PageRequest): Promise<FetchedPage> {
        requests.push(request);
        const key = request.query ? `${request.path}?${new URLSearchParams(request.query as Record<string, string>).toString()}` : request.path;
        const page = pages[key] ?? pages[request.path] ?? { status: 404, html: '<html>dogs</html>' };
        return { status: page.status ?? 200, html: page.html, url: `${request.marketplace.origin}${key}`, retrievedAt, fromCache: false };
      },
    },
  };
  return { ctx, requests };
}

async function failure(promise: Promise<unknown>): Promise<CoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CoreError) return error;
    throw error;
  }
  throw new Error('expected a CoreError');
}

describe('search handler', () => {
  const request = (init: Parameters<typeof create<typeof SearchProductsRequestSchema>>[1]) =>
    validateRequest('SearchProducts', create(SearchProductsRequestSchema, init));

  it('builds /s from validated parameters only', () => {
    expect(searchQuery(request({ searchTerm: ' portable charger ', domain: Domain.US }))).toEqual({ k: 'portable charger' });
    expect(
      searchQuery(request({ searchTerm: 'kettle', categoryId: '289745', page: 3n, minPrice: 10, maxPrice: 50.5, sort: SearchSort.PRICE_ASCENDING, conditions: [2] })),
    ).toEqual({ k: 'kettle', rh: 'n:289745,p_n_condition-type:6461718011', 'low-price': '10', 'high-price': '50.5', s: 'price-asc-rank', page: '3' });
    expect(searchQuery(request({ searchTerm: 'x', categoryId: 'electronics', domain: Domain.DE, conditions: [1] }))).toEqual({ k: 'x', i: 'electronics' });
  });

  it('answers the parsed page truncated to limit, with the fetch in meta', async () => {
    const { ctx, requests } = contextWith({ '/s?k=trinkflasche': { html: fixture('search/s-de-fixture.html') } });
    const req = request({ searchTerm: 'trinkflasche', domain: Domain.DE, limit: 2n });
    const res = await searchProducts(req, { ...ctx, marketplace: req.marketplace });
    expect(requests[0]).toMatchObject({ path: '/s', query: { k: 'trinkflasche' }, kind: 'search' });
    expect(requests[0]!.marketplace.code).toBe('DE');
    expect(res.retailProductSearchResults!.productResults!.results!.map((r) => r.asin)).toEqual(['B0DEFIX001', 'B0DEFIX002']);
    expect(res.meta).toMatchObject({ cache: CacheStatus.MISS, retrievedAt: { seconds: BigInt(retrievedAt.getTime() / 1000) } });
  });

  it('maps a marketplace 404 to NOT_FOUND and an unreadable page to UPSTREAM_ERROR', async () => {
    const missing = contextWith({});
    expect((await failure(searchProducts(request({ searchTerm: 'x' }), missing.ctx))).reason).toBe(ErrorReason.NOT_FOUND);
    const odd = contextWith({ '/s': { html: '<html><body>Something else entirely</body></html>' } });
    expect((await failure(searchProducts(request({ searchTerm: 'x' }), odd.ctx))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
    const changed = contextWith({ '/s': { html: '<div class="s-main-slot"><div data-asin="B0FXCHNG01" class="new-card-layout"></div></div>' } });
    expect((await failure(searchProducts(request({ searchTerm: 'x' }), changed.ctx))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
    const none = contextWith({ '/s': { html: '<div class="s-main-slot"><div class="s-no-results">No results for x.</div></div>' } });
    expect((await searchProducts(request({ searchTerm: 'x' }), none.ctx)).retailProductSearchResults!.productResults!.results).toEqual([]);
    const broken = contextWith({ '/s': { status: 500, html: 'oops' } });
    expect((await failure(searchProducts(request({ searchTerm: 'x' }), broken.ctx))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('reviews handler', () => {
  const request = (init: Parameters<typeof create<typeof GetProductReviewsRequestSchema>>[1]) =>
    validateRequest('GetProductReviews', create(GetProductReviewsRequestSchema, { asin: 'B0FXREV001', ...init }));
  const pages = { '/dp/B0FXREV001': { html: fixture('reviews/dp-B0FXREV001-top-reviews.html') } };

  it('without a session, page 1 with no filters answers the product page top reviews', async () => {
    const { ctx, requests } = contextWith(pages);
    const res = await createGetProductReviews({ sessionConfigured: false })(request({}), ctx);
    expect(requests.map((r) => r.path)).toEqual(['/dp/B0FXREV001']);
    const top = res.retailProduct!.topReviews!;
    expect(top.map((r) => r.id)).toEqual(['R1FXTOP0000001', 'R2FXTOP0000002']);
    expect(top[0]).toMatchObject({
      title: 'Pours exactly where I aim it',
      body: 'The gooseneck gives a steady thin stream and the handle stays cool.',
      rating: 5,
      date: '2026-03-03',
      verifiedPurchase: true,
      helpfulVotes: 12n,
      imageUrls: ['https://m.media-amazon.com/images/I/71FixtureRevA._SY88.jpg'],
      reviewer: { id: 'amzn1.account.AFIXTUREREVIEWER1', name: 'Dana K.', url: 'https://www.amazon.com/gp/profile/amzn1.account.AFIXTUREREVIEWER1' },
    });
    expect(top[1]).toMatchObject({ rating: 2, verifiedPurchase: false, helpfulVotes: 1n, date: '2026-01-18' });
    expect(res.retailProduct!.reviewsPaginated!.pageInfo).toMatchObject({ currentPage: 1n, totalPages: 1n, hasNextPage: false });
  });

  it.each([
    ['page 2', { page: 2n }],
    ['a star filter', { rating: ReviewRating.ONE_STAR }],
    ['verified only', { onlyVerifiedReviews: true }],
    ['a keyword', { search: 'lid' }],
  ])('without a session, %s is SESSION_REQUIRED and fetches nothing', async (_name, init) => {
    const { ctx, requests } = contextWith(pages);
    const error = await failure(createGetProductReviews({ sessionConfigured: false })(request(init), ctx));
    expect(error.reason).toBe(ErrorReason.SESSION_REQUIRED);
    expect(error.message).toBe(SESSION_REQUIRED_MESSAGE);
    expect(requests).toEqual([]);
  });

  it('with a session, fetches the filtered review list as well', async () => {
    const { ctx, requests } = contextWith({
      ...pages,
      '/product-reviews/B0FXREV001?pageNumber=2&filterByStar=one_star&reviewerType=avp_only_reviews&filterByKeyword=lid': {
        html: '<div id="cm_cr-review_list"><div id="R3FX" data-hook="review"><span data-hook="review-body">Lid.</span></div></div>',
      },
    });
    const res = await createGetProductReviews({ sessionConfigured: true })(
      request({ page: 2n, rating: ReviewRating.ONE_STAR, onlyVerifiedReviews: true, search: 'lid' }),
      ctx,
    );
    expect(requests.map((r) => r.kind).sort()).toEqual(['product', 'reviews']);
    expect(res.retailProduct!.reviewsPaginated!.reviews!.map((r) => r.id)).toEqual(['R3FX']);
    expect(res.retailProduct!.topReviews).toHaveLength(2);
  });
});

describe('reviews handler with a session, product page missing', () => {
  it('still answers the review list, with no top reviews', async () => {
    const { ctx } = contextWith({
      '/product-reviews/B0FXREV009': { html: '<div id="cm_cr-review_list"><div id="R9FX" data-hook="review"></div></div>' },
    });
    const request = validateRequest('GetProductReviews', create(GetProductReviewsRequestSchema, { asin: 'B0FXREV009' }));
    const res = await createGetProductReviews({ sessionConfigured: true })(request, ctx);
    expect(res.retailProduct!.topReviews).toEqual([]);
    expect(res.retailProduct!.reviewsPaginated!.reviews!.map((r) => r.id)).toEqual(['R9FX']);
  });

  it('a missing review list is NOT_FOUND', async () => {
    const { ctx } = contextWith({});
    const request = validateRequest('GetProductReviews', create(GetProductReviewsRequestSchema, { asin: 'B0FXREV009' }));
    expect((await failure(createGetProductReviews({ sessionConfigured: true })(request, ctx))).reason).toBe(ErrorReason.NOT_FOUND);
  });
});

describe('stock and sales handlers', () => {
  const pages = { '/dp/B0FXREV001': { html: fixture('reviews/dp-B0FXREV001-top-reviews.html') } };

  it('stock: "Only 3 left" with the buy box offer id', async () => {
    const { ctx } = contextWith(pages);
    const res = await getStockEstimate(validateRequest('GetStockEstimate', create(GetStockEstimateRequestSchema, { asin: 'b0fxrev001' })), ctx);
    expect(res.retailProduct!.stockEstimate).toEqual({
      inStock: true,
      stockLevel: 3n,
      availabilityMessage: 'Only 3 left in stock - order soon.',
      offerId: 'FixtureOfferListingId001',
    });
  });

  it('sales: the top-level best-sellers rank through the power law', async () => {
    const { ctx } = contextWith(pages);
    const res = await getSalesEstimate(validateRequest('GetSalesEstimate', create(GetSalesEstimateRequestSchema, { asin: 'B0FXREV001' })), ctx);
    expect(res.retailProduct!.salesEstimate).toMatchObject({ bestSellersRank: 1234n, category: 'Kitchen & Dining' });
    expect(Number(res.retailProduct!.salesEstimate!.monthlyUnitSales)).toBeGreaterThan(Number(res.retailProduct!.salesEstimate!.weeklyUnitSales));
  });

  it('a page that is not a product page is UPSTREAM_ERROR', async () => {
    const { ctx } = contextWith({ '/dp/B0FXREV001': { html: '<html><body>Hello</body></html>' } });
    const error = await failure(getStockEstimate(validateRequest('GetStockEstimate', create(GetStockEstimateRequestSchema, { asin: 'B0FXREV001' })), ctx));
    expect(error.reason).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('best-sellers and variants handlers', () => {
  it('best sellers: /gp/bestsellers/CATEGORY with pg after page 1, limit applied; a page without ranks is UPSTREAM_ERROR', async () => {
    const grid = (asin: string, rank: number) =>
      `<div id="gridItemRoot"><span class="zg-bdg-text">#${rank}</span><div id="${asin}" class="p13n-sc-uncoverable-faceout"><a href="/x/dp/${asin}">x</a></div></div>`;
    const { ctx, requests } = contextWith({ '/gp/bestsellers/kitchen/3167641?pg=2': { html: `<html><body>${grid('B0FXBS0051', 51)}${grid('B0FXBS0052', 52)}</body></html>` } });
    const req = validateRequest('GetBestSellers', create(GetBestSellersRequestSchema, { categoryId: 'kitchen/3167641', page: 2n, limit: 1n }));
    const res = await getBestSellers(req, ctx);
    expect(requests[0]).toMatchObject({ path: '/gp/bestsellers/kitchen/3167641', query: { pg: '2' }, kind: 'bestsellers' });
    expect(res.retailBestSellers!.productResults!.results!.map((r) => [r.asin, r.bestSellersRank])).toEqual([['B0FXBS0051', 51n]]);
    const empty = contextWith({ '/gp/bestsellers/kitchen': { html: '<html><body>nothing ranked</body></html>' } });
    const emptyReq = validateRequest('GetBestSellers', create(GetBestSellersRequestSchema, { categoryId: 'kitchen' }));
    expect((await failure(getBestSellers(emptyReq, empty.ctx))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
  });

  it('variants: a product without variations is an empty list, a non-product page UPSTREAM_ERROR', async () => {
    const req = validateRequest('GetProductVariants', create(GetProductVariantsRequestSchema, { asin: 'B0FXREV001' }));
    const { ctx } = contextWith({ '/dp/B0FXREV001': { html: fixture('reviews/dp-B0FXREV001-top-reviews.html') } });
    expect((await getProductVariants(req, ctx)).retailProduct).toEqual({ variants: [] });
    const odd = contextWith({ '/dp/B0FXREV001': { html: '<html><body>Hello</body></html>' } });
    expect((await failure(getProductVariants(req, odd.ctx))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

describe('offers handler', () => {
  const request = (page = 1n) => validateRequest('GetProductOffers', create(GetProductOffersRequestSchema, { asin: 'B0FXOFFR01', page }));

  it('reads the current all-offers display first', async () => {
    const { ctx, requests } = contextWith({
      '/gp/product/ajax?asin=B0FXOFFR01&pc=dp&experienceId=aodAjaxMain&pageno=2': { html: fixture('offers/aod-B0FXOFFR01-current.html') },
    });
    const res = await getProductOffers(request(2n), ctx);
    expect(requests).toHaveLength(1);
    expect(res.retailProduct!.offersPaginated!.offers!.map((o) => o.buyboxWinner)).toEqual([true, false, false]);
  });

  it('falls back to the offer-listing address when the display is not served, and maps a missing listing to NOT_FOUND', async () => {
    const { ctx, requests } = contextWith({ '/gp/offer-listing/B0FXOFFR01': { html: fixture('offers/aod-B0FXOFFR01-current.html') } });
    const res = await getProductOffers(request(), ctx);
    expect(requests.map((r) => r.path)).toEqual(['/gp/product/ajax', '/gp/offer-listing/B0FXOFFR01']);
    expect(res.retailProduct!.offersPaginated!.offers).toHaveLength(3);
    const none = contextWith({});
    expect((await failure(getProductOffers(request(), none.ctx))).reason).toBe(ErrorReason.NOT_FOUND);
  });
});

describe('seller handler', () => {
  it('reads the storefront and survives a missing profile page', async () => {
    const { ctx, requests } = contextWith({ '/s?me=A1FIXTURESELLER': { html: fixture('search/s-de-fixture.html') } });
    const req = validateRequest('GetSeller', create(GetSellerRequestSchema, { sellerId: 'A1FIXTURESELLER', domain: Domain.DE }));
    const res = await getSeller(req, { ...ctx, marketplace: req.marketplace });
    expect(requests.map((r) => `${r.path}?${new URLSearchParams(r.query as Record<string, string>).toString()}`)).toEqual(['/s?me=A1FIXTURESELLER', '/sp?seller=A1FIXTURESELLER']);
    expect(res.retailSeller!.sellerId).toBe('A1FIXTURESELLER');
    expect(res.retailSeller!.productResults!.results).toHaveLength(3);
  });
});
