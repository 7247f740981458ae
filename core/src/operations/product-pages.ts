import type { ParsedPage } from '../cache/parsed-pages.js';
import { WORDS } from '../marketplaces/index.js';
import type { ParsedProductPage } from '../parsers/product.js';
import type { DetailRow } from '../parsers/product-details.js';
import type { ProductPageParts } from '../parsers/product-page.js';
import { unparseable } from './fetch-parse.js';
import { readPage } from './parsed-pages.js';
import type { OperationContext } from './types.js';

/** When and how a page behind an answer was read (response metadata). */
export type PageSource = Pick<ParsedPage<unknown>, 'fromCache' | 'stale' | 'retrievedAt'>;

/** A product page's record, and where it came from. */
export interface ProductPage {
  readonly parsed: ParsedProductPage;
  readonly source: PageSource;
}

/**
 * Every part of `/dp/ASIN` (product-page.ts), read once through the page cache and shared by
 * product, the identifier conversions, variants, stock, sales and top reviews.
 */
export function loadProductPageParts(asin: string, ctx: OperationContext): Promise<ParsedPage<ProductPageParts>> {
  return readPage<ProductPageParts>(ctx, { path: `/dp/${asin}`, kind: 'product', what: 'product' }, 'product-page', {
    args: { asin },
    // A page with neither a readable record nor product markers has nothing any operation can use.
    usable: ({ product, isProductPage }) => {
      if (!product.ok && !isProductPage) throw unparseable('product', product.cause, product.message);
    },
  });
}

/** The parts of a page that must be a product page (variants, stock, sales, top reviews). */
export async function loadProductPageOnly(asin: string, ctx: OperationContext): Promise<ParsedPage<ProductPageParts>> {
  const page = await loadProductPageParts(asin, ctx);
  if (!page.value.isProductPage) throw unparseable('product', 'no product markers on the page');
  return page;
}

/** The product record of `/dp/ASIN`; a page the product parser cannot read is UPSTREAM_ERROR. */
export async function loadProductPage(asin: string, ctx: OperationContext): Promise<ProductPage> {
  const page = await loadProductPageParts(asin, ctx);
  const { product } = page.value;
  if (!product.ok) throw unparseable('product', product.cause, product.message);
  return { parsed: product.value, source: page };
}

/** Labels of a detail row in every language (a storefront may be shown in another language). */
function labelsInAllLanguages(field: 'isbn10' | 'isbn13' | 'upc' | 'ean'): Set<string> {
  return new Set(Object.values(WORDS).flatMap((w) => w.detailLabels[field].map((l) => l.toLowerCase())));
}

/** Values of the detail rows labelled as `field`, in page order. */
export function identifierRows(rows: readonly DetailRow[], field: 'isbn10' | 'isbn13' | 'upc' | 'ean'): string[] {
  const labels = labelsInAllLanguages(field);
  return rows.filter((r) => labels.has(r.name.toLowerCase())).map((r) => r.value);
}
