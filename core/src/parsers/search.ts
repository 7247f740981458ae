import type { MessageInitShape } from '@bufbuild/protobuf';
import type { SearchResultsSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import type { AnyNode } from './common/dom.js';
import { loadIndexedPage, type Page } from './common/page.js';
import { findResultCards } from './results/cards.js';
import { parseResultCard, type ProductResultInit } from './results/card.js';
import { parsePageInfo, type PageInfoInit } from './results/page-info.js';
import { parseRefinements } from './results/refinements.js';

export type SearchResultsInit = MessageInitShape<typeof SearchResultsSchema>;

export interface SearchParseContext {
  readonly marketplace: Marketplace;
  /** The page that was requested (used when the page shows no pagination strip). */
  readonly page?: number;
}

/**
 * The results list and pagination of any search-style page (search, storefront, category, author).
 * `complete` adds to each result what its page kind reads beyond the shared card (an author page's
 * contributors).
 */
export function parseResultList(
  page: Page,
  ctx: SearchParseContext,
  complete?: (result: ProductResultInit, card: AnyNode) => void,
): { results: ProductResultInit[]; pageInfo: PageInfoInit } {
  const results: ProductResultInit[] = [];
  for (const card of findResultCards(page)) {
    const result = parseResultCard(page, card, ctx.marketplace);
    if (!result) continue;
    complete?.(result, card);
    results.push(result);
  }
  return { results, pageInfo: parsePageInfo(page, ctx.page ?? 1, results.length) };
}

/**
 * A search page (`/s?k=…`) → `retailProductSearchResults`: every main-results card in page order
 * (sponsored ones included and marked), the pagination and the filter sidebar.
 */
export function parseSearchPage(html: string, ctx: SearchParseContext): SearchResultsInit {
  return readSearchPage(loadIndexedPage(html), ctx);
}

/** parseSearchPage on a loaded page. */
export function readSearchPage(page: Page, ctx: SearchParseContext): SearchResultsInit {
  return { availableRefinements: parseRefinements(page), productResults: parseResultList(page, ctx) };
}
