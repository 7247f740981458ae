import type { MessageInitShape } from '@bufbuild/protobuf';
import { Condition, RULE_MESSAGES, SearchSort, type SearchProductsRequest, type SearchProductsResponseSchema } from '@retail/contract';
import { invalidArgument } from '../errors.js';
import type { SearchResultsInit } from '../parsers/search.js';
import { domainMarketplace, type MarketplaceRequest, optionalNumber, pageOrFirst, sortOrDefault } from '../validation/request-fields.js';
import type { MarkedPage } from '../workers/parser-registry.js';
import { applyLimit, unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationContext, OperationHandler } from './types.js';

type SearchResponseInit = MessageInitShape<typeof SearchProductsResponseSchema>;

export interface SearchRequest extends MarketplaceRequest {
  /** Trimmed, non-empty. */
  readonly searchTerm: string;
  readonly categoryId: string | undefined;
  readonly page: number;
  readonly limit: number | undefined;
  readonly minPrice: number | undefined;
  readonly maxPrice: number | undefined;
  /** Distinct, never UNSPECIFIED; empty means any condition. */
  readonly conditions: readonly Condition[];
  /** Never UNSPECIFIED (defaults to FEATURED). */
  readonly sort: SearchSort;
}

function normalizeSearchRequest(m: SearchProductsRequest): SearchRequest {
  if (m.minPrice !== undefined && m.maxPrice !== undefined && m.maxPrice < m.minPrice) {
    throw invalidArgument(RULE_MESSAGES.notLessThan('maxPrice', 'minPrice'), 'max_price');
  }
  return {
    marketplace: domainMarketplace(m.domain),
    searchTerm: m.searchTerm.trim(),
    categoryId: m.categoryId,
    page: pageOrFirst(m.page),
    limit: optionalNumber(m.limit),
    minPrice: m.minPrice,
    maxPrice: m.maxPrice,
    conditions: [...new Set(m.conditions)],
    sort: sortOrDefault(m.sort),
  };
}

/** The marketplace's sort keys (`s=` of /s). */
const SORT_KEYS: Record<SearchSort, string | undefined> = {
  [SearchSort.UNSPECIFIED]: undefined,
  [SearchSort.FEATURED]: 'relevanceblender',
  [SearchSort.MOST_RECENT]: 'date-desc-rank',
  [SearchSort.PRICE_ASCENDING]: 'price-asc-rank',
  [SearchSort.PRICE_DESCENDING]: 'price-desc-rank',
  [SearchSort.AVERAGE_CUSTOMER_REVIEW]: 'review-rank',
};

/*
 * Condition refinement nodes (`p_n_condition-type`) as the US storefront names them. Other
 * marketplaces use other node ids which the project has not verified, so there the condition
 * filter is not sent (documented in docs/parsers.md) rather than sent wrong.
 */
const CONDITION_NODES: Partial<Record<string, Partial<Record<Condition, string>>>> = {
  US: { [Condition.NEW]: '6461716011', [Condition.USED]: '6461718011', [Condition.RENEWED]: '16907722011' },
};

/** `/s?k=…` with the validated filters, built from parameters only (never from a client URL). */
export function searchQuery(request: SearchRequest): Record<string, string> {
  const query: Record<string, string> = { k: request.searchTerm };
  const rh: string[] = [];
  if (request.categoryId) {
    if (/^\d+$/.test(request.categoryId)) rh.push(`n:${request.categoryId}`);
    else query.i = request.categoryId;
  }
  const nodes = CONDITION_NODES[request.marketplace.code];
  const conditionNodes = request.conditions.map((c) => nodes?.[c]).filter((n): n is string => n !== undefined);
  if (conditionNodes.length > 0) rh.push(`p_n_condition-type:${conditionNodes.join('|')}`);
  if (rh.length > 0) query.rh = rh.join(',');
  if (request.minPrice !== undefined) query['low-price'] = String(request.minPrice);
  if (request.maxPrice !== undefined) query['high-price'] = String(request.maxPrice);
  const sort = SORT_KEYS[request.sort];
  if (sort && request.sort !== SearchSort.FEATURED) query.s = sort;
  if (request.page > 1) query.page = String(request.page);
  return query;
}

/**
 * A search page shows results or says it has none; anything else (no list, or product ids the card
 * reader could not turn into results) is an unreadable page, not an empty answer.
 */
export function usableSearchPage({ data, marked }: MarkedPage<SearchResultsInit>): void {
  if ((data.productResults?.results ?? []).length === 0 && !marked) {
    throw unparseable('search results', 'no readable result cards and no no-results message');
  }
}

export const searchProducts: OperationHandler<SearchRequest, SearchResponseInit> = async (request, ctx: OperationContext) => {
  const page = await readPage<MarkedPage<SearchResultsInit>>(ctx, { path: '/s', query: searchQuery(request), kind: 'search', what: 'search results' }, 'search-page', {
    args: { page: request.page },
    usable: usableSearchPage,
  });
  const data = page.value.data;
  const results = data.productResults?.results ?? [];
  return {
    retailProductSearchResults: {
      availableRefinements: data.availableRefinements ?? [],
      productResults: { results: applyLimit(results, request.limit), pageInfo: data.productResults?.pageInfo ?? {} },
    },
    meta: metaOfParsed(page),
  };
};

export const searchProductsOperation = defineOperation('SearchProducts', { normalize: normalizeSearchRequest, handle: searchProducts });
