import type { DomainCode, Marketplace } from '../marketplaces/index.js';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseAuthorPage } from '../parsers/author.js';
import { parseAutocompleteJson } from '../parsers/autocomplete.js';
import { parseBestSellerCategories } from '../parsers/bestseller-categories.js';
import { parseBestSellersPage } from '../parsers/bestsellers.js';
import { parseCategoryPage } from '../parsers/category.js';
import { parseDealsPage } from '../parsers/deals.js';
import { parseOffersPage } from '../parsers/offers.js';
import { isEmptySearchPage, looksLikeDealsPage, looksLikeOffersPage, looksLikeReviewsPage } from '../parsers/page-markers.js';
import { parseProductPage } from '../parsers/product.js';
import { parseProductPageParts, PRODUCT_PAGE_PARTS_VERSION } from '../parsers/product-page.js';
import { parseReviewsPage, parseTopReviews } from '../parsers/reviews.js';
import { parseBestSellersRanks } from '../parsers/sales.js';
import { parseSearchPage } from '../parsers/search.js';
import { parseSellerProfile, parseSellerStorefront } from '../parsers/seller.js';
import { parseStockSignals } from '../parsers/stock.js';
import { parseCategoryTaxonomy } from '../parsers/taxonomy.js';
import { parseVariantsPage } from '../parsers/variants.js';

/**
 * The parsers a worker thread can run, by id. A worker receives data only (no functions cross a
 * thread), so a task names its parser and passes the parse context with the marketplace as its
 * domain code; the worker rebuilds the context. The ids and versions double as the page cache's
 * parser key: bump a version whenever what that parser yields changes, so no cache serves a shape
 * an older parser produced.
 */
export interface ParseArgs {
  readonly domain: DomainCode;
  readonly [key: string]: unknown;
}

interface Parser {
  readonly version: number;
  readonly run: (html: string, m: Marketplace, args: ParseArgs) => unknown;
}

const withContext =
  <C>(version: number, parse: (html: string, ctx: C) => unknown): Parser => ({
    version,
    run: (html, marketplace, args) => {
      const { domain: _domain, ...rest } = args;
      return parse(html, { ...rest, marketplace } as C);
    },
  });

const byMarketplace = (version: number, parse: (html: string, m: Marketplace) => unknown): Parser => ({ version, run: (html, m) => parse(html, m) });

/*
 * A page read for an operation: the parser's data plus the page-level verdict its handler needs
 * (page-markers.ts), so a parsed entry in the cache answers without the HTML.
 */
export interface MarkedPage<T> {
  readonly data: T;
  /** The page is of the kind asked for (or, for search, says it has no results). */
  readonly marked: boolean;
}

const marked =
  <C>(version: number, parse: (html: string, ctx: C) => unknown, marker: (html: string) => boolean): Parser =>
    withContext<C>(version, (html, ctx) => ({ data: parse(html, ctx), marked: marker(html) }) satisfies MarkedPage<unknown>);

export const PARSERS = {
  // What the operations read (operations/parsed-pages.ts).
  'product-page': withContext(PRODUCT_PAGE_PARTS_VERSION, parseProductPageParts),
  'search-page': marked(1, parseSearchPage, isEmptySearchPage),
  'offers-page': marked(1, parseOffersPage, looksLikeOffersPage),
  'reviews-page': marked(1, parseReviewsPage, looksLikeReviewsPage),
  'deals-page': marked(2, parseDealsPage, looksLikeDealsPage),
  bestsellers: withContext(1, parseBestSellersPage),
  'bestseller-categories': byMarketplace(1, parseBestSellerCategories),
  'seller-storefront': withContext(1, parseSellerStorefront),
  'seller-profile': withContext(1, parseSellerProfile),
  author: withContext(1, parseAuthorPage),
  category: withContext(1, parseCategoryPage),
  categories: byMarketplace(1, parseCategoryTaxonomy),
  autocomplete: byMarketplace(1, (body) => parseAutocompleteJson(body) ?? null),
  // Single parsers of the product page, for bench/parse.ts and the pool's tests.
  product: withContext(2, parseProductPage),
  variants: withContext(1, parseVariantsPage),
  'top-reviews': withContext(1, parseTopReviews),
  stock: byMarketplace(1, parseStockSignals),
  sales: byMarketplace(1, parseBestSellersRanks),
  offers: withContext(1, parseOffersPage),
  reviews: withContext(1, parseReviewsPage),
  search: withContext(1, parseSearchPage),
} satisfies Record<string, Parser>;

export type ParserId = keyof typeof PARSERS;

export const isParserId = (id: string): id is ParserId => Object.hasOwn(PARSERS, id);

/** The page cache's parser key of a registered parser. */
export const parserVersion = (id: ParserId): number => PARSERS[id].version;

/** Runs a registered parser in this thread (the worker's body, and the pool's in-process fallback). */
export function runParser(id: ParserId, html: string, args: ParseArgs): unknown {
  return PARSERS[id].run(html, marketplaceByCode(args.domain), args);
}
