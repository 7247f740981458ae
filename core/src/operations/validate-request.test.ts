import { type DescMessage, create } from '@bufbuild/protobuf';
import {
  Condition,
  Domain,
  ErrorReason,
  GetAsinFromGtinRequestSchema,
  GetAuthorRequestSchema,
  GetAutocompleteSuggestionsRequestSchema,
  GetBestSellerCategoriesRequestSchema,
  GetBestSellersRequestSchema,
  GetCategoryRequestSchema,
  GetDealsRequestSchema,
  GetGtinFromAsinRequestSchema,
  GetProductOffersRequestSchema,
  GetProductRequestSchema,
  GetProductReviewsRequestSchema,
  GetSellerRequestSchema,
  GetStockEstimateRequestSchema,
  OPERATIONS,
  ReviewRating,
  SearchProductsRequestSchema,
  SearchSort,
} from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { RPC_NAMES, type RpcName, validateRequest } from './index.js';

function rejection(rpc: RpcName, schema: DescMessage, init: Record<string, unknown>): CoreError {
  try {
    validateRequest(rpc, create(schema, init as never));
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    expect((error as CoreError).reason).toBe(ErrorReason.INVALID_ARGUMENT);
    return error as CoreError;
  }
  throw new Error(`accepted ${JSON.stringify(init, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
}

describe('validateRequest', () => {
  it('knows every RPC of the service', () => {
    expect([...RPC_NAMES].sort()).toEqual(OPERATIONS.map((op) => op.name).sort());
  });

  describe('lookup key', () => {
    it('needs one', () => {
      const error = rejection('GetProduct', GetProductRequestSchema, {});
      expect(error.message).toBe('asin, url or gtin must be provided');
      expect(error.fieldPath).toEqual(['asin']);
    });
    it('refuses several', () => {
      const error = rejection('GetProduct', GetProductRequestSchema, { asin: 'B000000000', gtin: '0306406152' });
      expect(error.message).toBe('provide exactly one of asin, url or gtin');
      expect(error.fieldPath).toEqual(['gtin']);
    });
    it('upper-cases an ASIN and defaults the domain to US', () => {
      const v = validateRequest('GetProduct', create(GetProductRequestSchema, { asin: 'b08n5wrwnw' }));
      expect(v.marketplace.code).toBe('US');
      expect(v.lookup).toEqual({ kind: 'asin', asin: 'B08N5WRWNW', source: 'asin' });
    });
    it('rejects a malformed ASIN', () => {
      const error = rejection('GetProduct', GetProductRequestSchema, { asin: 'B08N5WRWN' });
      expect(error.fieldPath).toEqual(['asin']);
    });
    it('strips a GTIN and reports its kind', () => {
      const v = validateRequest('GetProduct', create(GetProductRequestSchema, { gtin: '978-0-306-40615-7', domain: Domain.UK }));
      expect(v.marketplace.code).toBe('UK');
      expect(v.lookup).toEqual({ kind: 'gtin', gtin: '9780306406157', gtinKind: 'EAN-13' });
    });
    it('lets the URL host set the domain when none is given', () => {
      const v = validateRequest('GetStockEstimate', create(GetStockEstimateRequestSchema, { url: 'https://www.amazon.de/dp/B0BDJH7WYQ' }));
      expect(v.marketplace.code).toBe('DE');
      expect(v.lookup).toEqual({ kind: 'asin', asin: 'B0BDJH7WYQ', source: 'url' });
    });
    it('accepts an agreeing domain and refuses a disagreeing one', () => {
      expect(validateRequest('GetProduct', create(GetProductRequestSchema, { url: 'https://www.amazon.de/dp/B0BDJH7WYQ', domain: Domain.DE })).marketplace.code).toBe('DE');
      const error = rejection('GetProduct', GetProductRequestSchema, { url: 'https://www.amazon.de/dp/B0BDJH7WYQ', domain: Domain.US });
      expect(error.fieldPath).toEqual(['domain']);
      expect(error.message).toMatch(/does not match/);
    });
    it('refuses an unknown domain number', () => {
      expect(rejection('GetProduct', GetProductRequestSchema, { asin: 'B000000000', domain: 42 }).fieldPath).toEqual(['domain']);
    });
    it('refuses a hostile URL', () => {
      expect(rejection('GetProduct', GetProductRequestSchema, { url: 'https://www.amazon.com@evil.example/dp/B000000000' }).fieldPath).toEqual(['url']);
    });
    it('refuses a bad check digit', () => {
      expect(rejection('GetProduct', GetProductRequestSchema, { gtin: '0306406153' }).message).toBe('gtin has an invalid check digit');
    });
  });

  describe('page and limit', () => {
    it('defaults the page to 1', () => {
      expect(validateRequest('GetProductOffers', create(GetProductOffersRequestSchema, { asin: 'B000000000' })).page).toBe(1);
    });
    it.each([0n, -1n, 101n, 9007199254740993n])('refuses page %s', (page) => {
      const error = rejection('GetProductOffers', GetProductOffersRequestSchema, { asin: 'B000000000', page });
      expect(error.fieldPath).toEqual(['page']);
      expect(error.message).toBe('page must be between 1 and 100');
    });
    it.each([0n, 61n])('refuses limit %s', (limit) => {
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'x', limit }).fieldPath).toEqual(['limit']);
    });
    it('keeps page 100 and limit 60', () => {
      const v = validateRequest('GetDeals', create(GetDealsRequestSchema, { page: 100n, limit: 60n }));
      expect({ page: v.page, limit: v.limit }).toEqual({ page: 100, limit: 60 });
    });
  });

  describe('search', () => {
    it('requires a non-blank term of at most 200 characters', () => {
      expect(rejection('SearchProducts', SearchProductsRequestSchema, {}).message).toBe('searchTerm is required');
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: '   ' }).fieldPath).toEqual(['search_term']);
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'a'.repeat(201) }).fieldPath).toEqual(['search_term']);
      expect(validateRequest('SearchProducts', create(SearchProductsRequestSchema, { searchTerm: 'é'.repeat(200) })).searchTerm).toHaveLength(200);
    });
    it('normalizes defaults and refuses inverted or non-finite prices and unspecified conditions', () => {
      const v = validateRequest('SearchProducts', create(SearchProductsRequestSchema, { searchTerm: ' usb c ', conditions: [Condition.NEW, Condition.NEW] }));
      expect({ term: v.searchTerm, sort: v.sort, conditions: v.conditions, page: v.page, limit: v.limit }).toEqual({
        term: 'usb c',
        sort: SearchSort.FEATURED,
        conditions: [Condition.NEW],
        page: 1,
        limit: undefined,
      });
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'x', minPrice: 10, maxPrice: 5 }).fieldPath).toEqual(['max_price']);
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'x', minPrice: -1 }).fieldPath).toEqual(['min_price']);
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'x', maxPrice: Number.NaN }).fieldPath).toEqual(['max_price']);
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'x', conditions: [Condition.UNSPECIFIED] }).fieldPath).toEqual(['conditions']);
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'x', sort: 77 }).fieldPath).toEqual(['sort']);
      expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: 'x', categoryId: 'a b' }).fieldPath).toEqual(['category_id']);
    });
    it('checks autocomplete terms and aliases', () => {
      expect(validateRequest('GetAutocompleteSuggestions', create(GetAutocompleteSuggestionsRequestSchema, { searchTerm: 'ipho', category: 'aps' })).category).toBe('aps');
      expect(rejection('GetAutocompleteSuggestions', GetAutocompleteSuggestionsRequestSchema, { searchTerm: 'x', category: 'APS!' }).fieldPath).toEqual(['category']);
    });
  });

  describe('reviews', () => {
    it('defaults rating to ALL and drops a blank search', () => {
      const v = validateRequest('GetProductReviews', create(GetProductReviewsRequestSchema, { asin: 'B000000000', search: ' great ' }));
      expect({ rating: v.rating, search: v.search, verified: v.onlyVerifiedReviews }).toEqual({ rating: ReviewRating.ALL, search: 'great', verified: false });
      expect(rejection('GetProductReviews', GetProductReviewsRequestSchema, { asin: 'B000000000', search: '' }).fieldPath).toEqual(['search']);
    });
  });

  describe('conversions, seller, author, category', () => {
    it('requires the gtin of asin-from-gtin and checks it', () => {
      expect(rejection('GetAsinFromGtin', GetAsinFromGtinRequestSchema, {}).message).toBe('gtin is required');
      expect(validateRequest('GetAsinFromGtin', create(GetAsinFromGtinRequestSchema, { gtin: '036000291452' })).gtinKind).toBe('UPC-A');
    });
    it('requires and upper-cases the asin of gtin-from-asin', () => {
      expect(rejection('GetGtinFromAsin', GetGtinFromAsinRequestSchema, {}).fieldPath).toEqual(['asin']);
      expect(validateRequest('GetGtinFromAsin', create(GetGtinFromAsinRequestSchema, { asin: 'abcdefghij' })).asin).toBe('ABCDEFGHIJ');
    });
    it('checks seller ids, author ids and category ids', () => {
      expect(rejection('GetSeller', GetSellerRequestSchema, { sellerId: 'A1<script>' }).fieldPath).toEqual(['seller_id']);
      expect(validateRequest('GetSeller', create(GetSellerRequestSchema, { sellerId: 'A2R2RITDJNW1Q6' })).sellerId).toBe('A2R2RITDJNW1Q6');
      expect(validateRequest('GetAuthor', create(GetAuthorRequestSchema, { asin: 'b000apzgge' })).authorId).toBe('B000APZGGE');
      expect(rejection('GetCategory', GetCategoryRequestSchema, {}).fieldPath).toEqual(['category_id']);
      expect(validateRequest('GetCategory', create(GetCategoryRequestSchema, { categoryId: '172282' })).sort).toBe(SearchSort.FEATURED);
      expect(rejection('GetDeals', GetDealsRequestSchema, { categoryIds: ['ok', 'not ok'] }).fieldPath).toEqual(['category_ids']);
    });
    it('defaults the marketplace of marketplace-only calls', () => {
      expect(validateRequest('GetBestSellerCategories', create(GetBestSellerCategoriesRequestSchema, { domain: Domain.JP })).marketplace.code).toBe('JP');
    });
  });

  describe('best sellers', () => {
    it('takes exactly one of categoryId or url', () => {
      expect(rejection('GetBestSellers', GetBestSellersRequestSchema, {}).message).toBe('categoryId or url must be provided');
      expect(rejection('GetBestSellers', GetBestSellersRequestSchema, { categoryId: 'books', url: 'https://www.amazon.com/gp/bestsellers/books' }).message).toBe(
        'provide exactly one of categoryId or url',
      );
    });
    it('reads the category from a best-sellers URL, its host setting the domain', () => {
      const v = validateRequest('GetBestSellers', create(GetBestSellersRequestSchema, { url: 'https://www.amazon.fr/gp/bestsellers/books/301132/ref=zg_bs_nav' }));
      expect({ code: v.marketplace.code, categoryId: v.categoryId, source: v.source }).toEqual({ code: 'FR', categoryId: 'books/301132', source: 'url' });
      expect(rejection('GetBestSellers', GetBestSellersRequestSchema, { url: 'https://www.amazon.fr/gp/bestsellers/books', domain: Domain.DE }).fieldPath).toEqual(['domain']);
    });
  });

  it('refuses a message of another RPC', () => {
    expect(() => validateRequest('GetProduct', create(GetSellerRequestSchema, { sellerId: 'A2R2RITDJNW1Q6' }))).toThrow(/expects/);
  });
});

describe('messages', () => {
  it('names the broken rule', () => {
    expect(rejection('GetProduct', GetProductRequestSchema, { asin: 'B00' }).message).toBe('asin must match ^[A-Za-z0-9]{10}$');
    expect(rejection('SearchProducts', SearchProductsRequestSchema, { searchTerm: ' \t ' }).message).toBe('searchTerm must not be blank');
  });
});
