import type { DomainCode, Marketplace } from '../marketplaces/index.js';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseBestSellersPage } from '../parsers/bestsellers.js';
import { parseOffersPage } from '../parsers/offers.js';
import { parseProductPage } from '../parsers/product.js';
import { parseReviewsPage, parseTopReviews } from '../parsers/reviews.js';
import { parseBestSellersRanks } from '../parsers/sales.js';
import { parseSearchPage } from '../parsers/search.js';
import { parseSellerProfile, parseSellerStorefront } from '../parsers/seller.js';
import { parseStockSignals } from '../parsers/stock.js';
import { parseVariantsPage } from '../parsers/variants.js';

/**
 * The parsers a worker thread can run, by id. A worker receives data only (no functions cross a
 * thread), so a task names its parser and passes the parse context with the marketplace as its
 * domain code; the worker rebuilds the context. The ids double as the cache's parser ids.
 */
export interface ParseArgs {
  readonly domain: DomainCode;
  readonly [key: string]: unknown;
}

type Parser = (html: string, m: Marketplace, args: ParseArgs) => unknown;

const withContext =
  <C>(parse: (html: string, ctx: C) => unknown): Parser =>
  (html, marketplace, args) => {
    const { domain: _domain, ...rest } = args;
    return parse(html, { ...rest, marketplace } as C);
  };

export const PARSERS = {
  product: withContext(parseProductPage),
  variants: withContext(parseVariantsPage),
  offers: withContext(parseOffersPage),
  reviews: withContext(parseReviewsPage),
  'top-reviews': withContext(parseTopReviews),
  search: withContext(parseSearchPage),
  bestsellers: withContext(parseBestSellersPage),
  'seller-storefront': withContext(parseSellerStorefront),
  'seller-profile': withContext(parseSellerProfile),
  stock: (html, m) => parseStockSignals(html, m),
  sales: (html, m) => parseBestSellersRanks(html, m),
} satisfies Record<string, Parser>;

export type ParserId = keyof typeof PARSERS;

export const isParserId = (id: string): id is ParserId => Object.hasOwn(PARSERS, id);

/** Runs a registered parser in this thread (the worker's body, and the pool's in-process fallback). */
export function runParser(id: ParserId, html: string, args: ParseArgs): unknown {
  return PARSERS[id](html, marketplaceByCode(args.domain), args);
}
