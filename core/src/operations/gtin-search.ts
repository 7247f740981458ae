import { ErrorReason } from '@retail/contract';
import { isCoreError } from '../errors.js';
import type { SearchResultsInit } from '../parsers/search.js';
import type { GtinKind } from '../validation/index.js';
import { readPage } from './parsed-pages.js';
import { identifierRows, loadProductPage, type PageSource, type ProductPage } from './product-pages.js';
import type { OperationContext } from './types.js';
import type { MarkedPage } from '../workers/parser-registry.js';

/*
 * GTIN → ASIN for UPC-A, EAN-8, EAN-13 and GTIN-14 through marketplace search: `/s?k=<gtin>`, then
 * each organic candidate's product page in search order; the first whose identifier rows (UPC,
 * EAN, ISBN-13) carry the same GTIN wins. Sponsored cards are not candidates (they are adverts
 * placed for the query, not matches for it). No candidate, or none that verifies, is `asin: null`.
 * Identifiers are compared as GTIN-14 (left-padded with zeros), so a UPC-A and the EAN-13 or
 * GTIN-14 that wrap it (0 + UPC) are the same product, as GS1 defines them.
 */

/** How many organic candidates are verified at most (each is one product-page fetch). */
export const MAX_GTIN_CANDIDATES = 4;

export interface GtinSearchResolution {
  readonly asin: string | null;
  /** The search page, and the product page that verified the answer when there was one. */
  readonly sources: readonly PageSource[];
  readonly product?: ProductPage;
}

/** A GTIN as GTIN-14 digits (UPC-A, EAN-8, EAN-13 and GTIN-14 compare equal when they name one item). */
export function asGtin14(value: string): string | undefined {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{8,14}$/.test(digits) ? digits.padStart(14, '0') : undefined;
}

/** The GTINs a product page shows in its UPC, EAN and ISBN-13 rows (a row may list several). */
export function pageGtins(product: ProductPage): Set<string> {
  const rows = product.parsed.detailRows;
  const values = (['upc', 'ean', 'isbn13'] as const).flatMap((field) => identifierRows(rows, field));
  const out = new Set<string>();
  for (const value of values) {
    for (const token of value.replace(/[\u200e\u200f]/g, '').split(/[\s,;/]+/)) {
      const gtin = asGtin14(token);
      if (gtin) out.add(gtin);
    }
  }
  return out;
}

/** Organic result ASINs of a search page, in page order, without repeats. */
export function searchCandidates(results: SearchResultsInit): string[] {
  const seen = new Set<string>();
  return (results.productResults?.results ?? [])
    .filter((r) => !r.sponsored && r.asin)
    .map((r) => r.asin!)
    .filter((asin) => (seen.has(asin) ? false : (seen.add(asin), true)))
    .slice(0, MAX_GTIN_CANDIDATES);
}

export async function resolveGtinBySearch(gtin: string, _kind: GtinKind, ctx: OperationContext): Promise<GtinSearchResolution> {
  const wanted = asGtin14(gtin);
  // The same parsed entry as a search for this term (GetSearchResults, page 1).
  const search = await readPage<MarkedPage<SearchResultsInit>>(ctx, { path: '/s', query: { k: gtin }, kind: 'search', what: 'search results' }, 'search-page', {
    args: { page: 1 },
  });
  if (!wanted) return { asin: null, sources: [search] };
  for (const asin of searchCandidates(search.value.data)) {
    const product = await candidatePage(asin, ctx);
    if (product && pageGtins(product).has(wanted)) return { asin, sources: [search, product.source], product };
  }
  return { asin: null, sources: [search] };
}

/**
 * A candidate's product page (through the page cache: its record is the one GetProduct reads). A
 * candidate whose page is gone (404) is skipped; any other failure (blocked, unreadable page) fails
 * the call rather than answer a `null` the marketplace did not say.
 */
async function candidatePage(asin: string, ctx: OperationContext): Promise<ProductPage | undefined> {
  try {
    return await loadProductPage(asin, ctx);
  } catch (error) {
    if (isCoreError(error) && error.reason === ErrorReason.NOT_FOUND) return undefined;
    throw error;
  }
}
