import { Condition, Domain, GetProductReviewsRequestSchema, ReviewRating, RetailService, SearchProductsRequestSchema } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { RPC_OF_OPERATION, buildRequest } from './grpc-corpus.js';

describe('buildRequest (golden REST parameters → request message)', () => {
  it('reads enums by value name, 64-bit integers as bigint, numbers, booleans and comma lists', () => {
    const search = buildRequest(SearchProductsRequestSchema, { searchTerm: 'tea', domain: 'DE', page: '2', minPrice: '9.5', conditions: 'NEW,USED' });
    expect(search).toMatchObject({ searchTerm: 'tea', domain: Domain.DE, page: 2n, minPrice: 9.5, conditions: [Condition.NEW, Condition.USED] });
    const reviews = buildRequest(GetProductReviewsRequestSchema, { asin: 'B000000000', onlyVerifiedReviews: 'true', rating: 'FIVE_STAR' });
    expect(reviews).toMatchObject({ asin: 'B000000000', onlyVerifiedReviews: true, rating: ReviewRating.FIVE_STAR });
  });
  it('refuses parameters the request does not have and enum values that do not exist', () => {
    expect(() => buildRequest(SearchProductsRequestSchema, { nope: '1' })).toThrow(/no parameter nope/);
    expect(() => buildRequest(SearchProductsRequestSchema, { domain: 'XX' })).toThrow(/no enum value XX/);
  });
  it('maps every corpus operation to an RPC of RetailService', () => {
    for (const method of Object.values(RPC_OF_OPERATION)) expect(RetailService.method[method]).toBeDefined();
  });
});
