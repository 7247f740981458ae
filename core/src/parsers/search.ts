import type { MessageInitShape } from '@bufbuild/protobuf';
import type { SearchResultsSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
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

/** The results list and pagination of any search-style page (search, storefront, category). */
export function parseResultList(page: Page, ctx: SearchParseContext): { results: ProductResultInit[]; pageInfo: PageInfoInit } {
  const results = findResultCards(page)
    .map((card) => parseResultCard(page, card, ctx.marketplace))
    .filter((r): r is ProductResultInit => r !== undefined);
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
