import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import {
  GetAsinFromGtinResponseSchema,
  GetAutocompleteSuggestionsResponseSchema,
  GetProductResponseSchema,
  GetProductReviewsResponseSchema,
  GetStockEstimateResponseSchema,
  PageInfoSchema,
  CacheStatus,
  SearchProductsRequestSchema,
  Condition,
  SearchSort,
} from './index.js';
import { compactData, renderData, renderMessage } from './wire.js';

describe('wire renderer', () => {
  it('omits optional fields the page did not show', () => {
    const data = renderData(GetProductResponseSchema, create(GetProductResponseSchema, { retailProduct: { title: 'T' } }));
    expect(data.retailProduct).not.toHaveProperty('brand');
    expect(data.retailProduct).not.toHaveProperty('price');
  });

  it('keeps false and 0 that were set', () => {
    const data = renderData(
      GetProductResponseSchema,
      create(GetProductResponseSchema, { retailProduct: { isPrime: false, ratingsTotal: 0n, rating: 0 } }),
    );
    expect(data.retailProduct).toMatchObject({ isPrime: false, ratingsTotal: 0, rating: 0 });
  });

  it('writes nullable fields as null when unknown', () => {
    const data = renderData(GetProductResponseSchema, create(GetProductResponseSchema, { retailProduct: {} }));
    expect(data.retailProduct).toMatchObject({ coupon: null, seller: null });
    const pair = renderData(GetAsinFromGtinResponseSchema, create(GetAsinFromGtinResponseSchema, { retailProduct: { gtin: '9780131103627' } }));
    expect(pair).toEqual({ retailProduct: { asin: null, gtin: '9780131103627' } });
  });

  it('writes 64-bit counts as JSON numbers', () => {
    const page = renderMessage(PageInfoSchema, create(PageInfoSchema, { totalResults: 4503599627370495n }));
    expect(page.totalResults).toBe(4503599627370495);
    expect(typeof page.totalResults).toBe('number');
  });

  it('always writes repeated fields, empty ones included', () => {
    const data = renderData(GetProductResponseSchema, create(GetProductResponseSchema, { retailProduct: {} }));
    expect(data.retailProduct).toMatchObject({ imageUrls: [], featureBullets: [], categories: [], technicalSpecifications: [] });
  });

  it('writes enum values without their prefix', () => {
    const req = renderMessage(
      SearchProductsRequestSchema,
      create(SearchProductsRequestSchema, { searchTerm: 'x', conditions: [Condition.NEW, Condition.RENEWED], sort: SearchSort.PRICE_ASCENDING }),
    );
    expect(req.conditions).toEqual(['NEW', 'RENEWED']);
    expect(req.sort).toBe('PRICE_ASCENDING');
  });

  it('always writes a required non-optional scalar', () => {
    const data = renderData(GetStockEstimateResponseSchema, create(GetStockEstimateResponseSchema, { retailProduct: { stockEstimate: {} } }));
    expect(data).toEqual({ retailProduct: { stockEstimate: { inStock: false } } });
  });

  it('renders an array data root and leaves meta out of data', () => {
    const response = create(GetAutocompleteSuggestionsResponseSchema, {
      retailSearchAutocompleteResults: [{ suggestion: 'usb c' }],
      meta: { cache: CacheStatus.HIT },
    });
    expect(renderData(GetAutocompleteSuggestionsResponseSchema, response)).toEqual({
      retailSearchAutocompleteResults: [{ suggestion: 'usb c' }],
    });
  });
});

describe('compactData', () => {
  it('leaves out the fields marked bulky, at any depth, and keeps the rest as rendered', () => {
    const product = create(GetProductResponseSchema, { retailProduct: { asin: 'B000000001', title: 'T', imageUrls: ['a', 'b'], featureBullets: ['f'], technicalSpecifications: [{ name: 'n', value: 'v' }], categories: [{ id: '1', name: 'c' }] } });
    const compact = compactData(GetProductResponseSchema, renderData(GetProductResponseSchema, product));
    expect(compact.retailProduct).toMatchObject({ asin: 'B000000001', title: 'T', categories: [{ id: '1', name: 'c' }], coupon: null, seller: null });
    for (const bulky of ['imageUrls', 'featureBullets', 'technicalSpecifications']) expect(compact.retailProduct).not.toHaveProperty(bulky);
    const reviews = create(GetProductReviewsResponseSchema, { retailProduct: { topReviews: [{ id: 'r', body: 'b', imageUrls: ['x'], videos: [{ url: 'v' }] }] } });
    const compactReviews = compactData(GetProductReviewsResponseSchema, renderData(GetProductReviewsResponseSchema, reviews));
    expect((compactReviews.retailProduct as { topReviews: object[] }).topReviews[0]).toEqual({ id: 'r', body: 'b' });
  });
});
