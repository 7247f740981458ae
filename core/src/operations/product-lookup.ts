import { ErrorReason } from '@retail/contract';
import { CoreError, isCoreError } from '../errors.js';
import type { GtinKind } from '../validation/index.js';
import { isbn10ToIsbn13, isbn13ToIsbn10 } from '../validation/index.js';
import type { ProductLookup } from '../validation/request-fields.js';
import { resolveGtinBySearch } from './gtin-search.js';
import { identifierRows, loadProductPage, type PageSource, type ProductPage } from './product-pages.js';
import type { OperationContext } from './types.js';

/**
 * The ISBN-10 a GTIN names, if any: an ISBN-10 itself, an EAN-13 (or GTIN-14 with a leading 0)
 * with the 978 prefix. 979 ISBNs have no ISBN-10 and, like UPC and other EANs, need search.
 */
export function isbn10Candidate(gtin: string, kind: GtinKind): string | undefined {
  if (kind === 'ISBN-10') return gtin.toUpperCase();
  if (kind === 'EAN-13') return isbn13ToIsbn10(gtin);
  if (kind === 'GTIN-14' && gtin.startsWith('0')) return isbn13ToIsbn10(gtin.slice(1));
  return undefined;
}

const digits = (value: string | undefined) => value?.replace(/[^0-9Xx]/g, '').toUpperCase();

/**
 * Does the candidate page show the book the GTIN names? Its ISBN rows must agree; a page without
 * ISBN rows is accepted only when its own ASIN is the ISBN-10 (a book page under its ISBN).
 */
export function isbnAgrees(product: ProductPage, isbn10: string): boolean {
  const rows = product.parsed.detailRows;
  const isbn10s = identifierRows(rows, 'isbn10').map(digits);
  const isbn13s = identifierRows(rows, 'isbn13').map(digits);
  if (isbn10s.length === 0 && isbn13s.length === 0) return product.parsed.product.asin === isbn10;
  return isbn10s.includes(isbn10) || isbn13s.includes(isbn10ToIsbn13(isbn10));
}

/** Result of resolving a GTIN: the verified ASIN (or null), the product page when one verified it. */
export interface GtinResolution {
  readonly asin: string | null;
  readonly product?: ProductPage;
  /** The pages the answer rests on (none when the marketplace had no candidate page at all). */
  readonly sources: readonly PageSource[];
}

/**
 * GTIN → ASIN. An ISBN (ISBN-10, or ISBN-13 with the 978 prefix) names its ISBN-10, verified on
 * that product page (its ISBN rows must agree). Every other GTIN, and an ISBN whose page does not
 * confirm it, goes through marketplace search: the organic candidates' pages are checked for the
 * same GTIN (gtin-search.ts). Nothing verified is `asin: null`, never a guess.
 */
export async function resolveGtin(gtin: string, kind: GtinKind, ctx: OperationContext): Promise<GtinResolution> {
  const candidate = isbn10Candidate(gtin, kind);
  if (candidate) {
    const byIsbn = await resolveIsbn(candidate, ctx);
    if (byIsbn.asin !== null) return byIsbn;
  }
  try {
    return await resolveGtinBySearch(gtin, kind, ctx);
  } catch (error) {
    // A search the marketplace answers with its 404 page has no candidates: no match, not an error.
    if (isCoreError(error) && error.reason === ErrorReason.NOT_FOUND) return { asin: null, sources: [] };
    throw error;
  }
}

/** The ISBN-10 candidate verified on its own product page; a missing page is no match. */
async function resolveIsbn(candidate: string, ctx: OperationContext): Promise<GtinResolution> {
  try {
    const product = await loadProductPage(candidate, ctx);
    return { asin: isbnAgrees(product, candidate) ? candidate : null, product, sources: [product.source] };
  } catch (error) {
    if (isCoreError(error) && error.reason === ErrorReason.NOT_FOUND) return { asin: null, sources: [] };
    throw error;
  }
}

/**
 * The ASIN of a product lookup (asin, url or gtin) for the per-product operations; a GTIN no
 * product matches is NOT_FOUND. Handlers of other page kinds take it as their AsinResolver.
 */
export async function resolveLookupAsin(lookup: ProductLookup, ctx: OperationContext): Promise<string> {
  if (lookup.kind === 'asin') return lookup.asin;
  const { asin } = await resolveGtin(lookup.gtin, lookup.gtinKind, ctx);
  if (asin === null) throw new CoreError(ErrorReason.NOT_FOUND, 'the marketplace has no product with this gtin');
  return asin;
}
