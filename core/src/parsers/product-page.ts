import { isCoreError } from '../errors.js';
import type { Marketplace } from '../marketplaces/types.js';
import { loadIndexedPage } from './common/page.js';
import { looksLikeProductPage } from './page-markers.js';
import { readProductPage, type ParsedProductPage } from './product.js';
import { readTopReviews, type ReviewInit } from './reviews.js';
import { readBestSellersRanks, type BestSellersRank } from './sales.js';
import { readStockSignals, type StockSignals } from './stock.js';
import { readVariants, type ProductVariantsInit } from './variants.js';

/**
 * Everything the operations read from one `/dp/ASIN` page: GetProduct and the identifier
 * conversions (the record and its detail rows), variants, stock, sales (best-sellers ranks) and top
 * reviews. Parsed from one load of the page, cached as one entry, so the five operations on one
 * product share one fetch and one parse. Plain data only: it crosses a worker thread and the cache.
 */
export interface ProductPageParts {
  /** The record, or why the page is not one the product parser can read (a page without a title). */
  readonly product: { readonly ok: true; readonly value: ParsedProductPage } | { readonly ok: false; readonly message: string; readonly cause: string };
  /** The page carries product-page markers (not a search or error page served at /dp/). */
  readonly isProductPage: boolean;
  readonly variants: ProductVariantsInit;
  readonly stock: StockSignals;
  readonly ranks: readonly BestSellersRank[];
  readonly topReviews: readonly ReviewInit[];
}

/**
 * Version of ProductPageParts: part of the page cache key, so a parser change never serves a shape
 * an older parser produced. Bump it with every change to what any of the five parsers yields.
 */
export const PRODUCT_PAGE_PARTS_VERSION = 3;

export function parseProductPageParts(html: string, ctx: { readonly marketplace: Marketplace; readonly asin: string }): ProductPageParts {
  // Every reader below only reads the page (changes go to copies): one page index serves them all.
  const page = loadIndexedPage(html);
  let product: ProductPageParts['product'];
  try {
    product = { ok: true, value: readProductPage(page, ctx) };
  } catch (error) {
    // A title-less page fails GetProduct only; stock or variants may still be on it.
    if (!isCoreError(error)) throw error;
    product = { ok: false, message: error.message, cause: error.cause instanceof Error ? error.cause.message : String(error.cause) };
  }
  return {
    product,
    isProductPage: looksLikeProductPage(html),
    variants: readVariants(page, ctx),
    stock: readStockSignals(page),
    ranks: readBestSellersRanks(page, ctx.marketplace),
    topReviews: readTopReviews(page, ctx),
  };
}
