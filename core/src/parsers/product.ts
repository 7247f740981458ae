import { ErrorReason } from '@retail/contract';
import { CoreError } from '../errors.js';
import { parseCount, parseRating, type Marketplace } from '../marketplaces/index.js';
import { cleanText, isHiddenContent, type Element } from './common/dom.js';
import { textWithout } from './common/node-reads.js';
import { firstAttr, firstVisibleText, loadIndexedPage, selectFirst, type Page } from './common/page.js';
import { elementTest } from './common/selector-match.js';
import { readDetailRows, type DetailRow } from './product-details.js';
import { isUsedOffer, readBrand, readInStock, readIsPrime } from './product-buybox.js';
import { readImageUrls, readMainImage } from './product-media.js';
import { readBuyBoxPrice } from './product-price.js';
import type { ProductInit } from './product-record.js';
import { readCategories, readCoupon, readFeatureBullets, readSeller } from './product-sections.js';
import { readStructuredData } from './product-structured-data.js';

export interface ProductParseContext {
  readonly marketplace: Marketplace;
  /** The ASIN that was requested (the page's own ASIN input wins when present). */
  readonly asin: string;
}

/** A parsed product page: the record plus the detail rows the identifier conversions read. */
export interface ParsedProductPage {
  readonly product: ProductInit;
  readonly detailRows: readonly DetailRow[];
}

const TITLE = ['#productTitle', '#ebooksProductTitle', '#ebooksTitle', '#btAsinTitle', 'h1[data-automation-id="title"]', '#aiv-content-title', '#title_feature_div h1', '#title'];

/**
 * Parses a product page into the product record of docs/contract.md (Records). Pure: no I/O, no clock. A page without a
 * title is not a product page the parser understands: UPSTREAM_ERROR, never a half-empty record.
 */
export function parseProductPage(html: string, ctx: ProductParseContext): ParsedProductPage {
  return readProductPage(loadIndexedPage(html), ctx);
}

/**
 * parseProductPage on a loaded page (product-page.ts reads every part of /dp/ from one load). The
 * page is only read, never changed: it is loaded with the page index (common/page.ts).
 */
export function readProductPage(page: Page, ctx: ProductParseContext): ParsedProductPage {
  const m = ctx.marketplace;
  const structured = readStructuredData(page);
  const title = readTitle(page) ?? structured?.name;
  if (!title) {
    throw new CoreError(ErrorReason.UPSTREAM_ERROR, 'The marketplace returned a product page the service could not read', {
      cause: new Error('product page without a title'),
    });
  }
  const detailRows = mergeRows(readDetailRows(page), structured?.rows ?? []);
  const asin = readAsin(page) ?? ctx.asin.toUpperCase();
  const price = readBuyBoxPrice(page, m);
  const mainImageUrl = readMainImage(page) ?? structured?.image;
  const rating = readRating(page, m) ?? structured?.rating;
  const ratingsTotal = readRatingsTotal(page, m) ?? structured?.ratingsTotal;
  const brand = readBrand(page, detailRows, m);
  const isInStock = readInStock(page, m, price !== undefined);
  const subtitle = firstVisibleText(page, ['#productSubtitle']);

  const product: ProductInit = {
    title,
    ...(subtitle ? { subtitle } : {}),
    ...(brand ? { brand } : {}),
    url: `${m.origin}/dp/${asin}`,
    asin,
    ...(price ? { isPrime: readIsPrime(page), isNew: !isUsedOffer(page) } : {}),
    ...(isInStock !== undefined ? { isInStock } : {}),
    ...(price ? { price } : {}),
    ...(mainImageUrl ? { mainImageUrl } : {}),
    imageUrls: readImageUrls(page, mainImageUrl),
    ...(rating !== undefined ? { rating } : {}),
    ...(ratingsTotal !== undefined ? { ratingsTotal: BigInt(ratingsTotal) } : {}),
    featureBullets: readFeatureBullets(page),
    technicalSpecifications: detailRows.map((r) => ({ name: r.name, value: r.value })),
    categories: readCategories(page, m),
    ...(readCoupon(page) ?? {}),
    ...(readSeller(page) ?? {}),
  };
  return { product, detailRows };
}

/** Shorthand for callers that only need the record. */
export function parseProduct(html: string, ctx: ProductParseContext): ProductInit {
  return parseProductPage(html, ctx).product;
}

function mergeRows(rows: DetailRow[], extra: readonly DetailRow[]): DetailRow[] {
  const names = new Set(rows.map((r) => r.name.toLowerCase()));
  return [...rows, ...extra.filter((r) => !names.has(r.name.toLowerCase()))];
}

// Video titles carry the release year in a span of their own.
const isReleaseYear = elementTest('.release-year');
const notInTitle = (el: Element) => isReleaseYear(el) || isHiddenContent(el);

function readTitle(page: Page): string | undefined {
  for (const selector of TITLE) {
    const text = cleanText(textWithout(selectFirst(page, undefined, selector), notInTitle));
    if (text) return text;
  }
  return undefined;
}

function readAsin(page: Page): string | undefined {
  const value = firstAttr(page, undefined, ['input#ASIN', 'input[name="ASIN"]', 'input[name="ASIN.0"]'], 'value')?.toUpperCase();
  return value && /^[A-Z0-9]{10}$/.test(value) ? value : undefined;
}

function readRating(page: Page, m: Marketplace): number | undefined {
  const sources = [
    firstAttr(page, undefined, ['#acrPopover'], 'title'),
    firstVisibleText(page, [
      '#acrPopover .a-icon-alt',
      '#averageCustomerReviews .a-icon-alt',
      '#acrPopover',
      'span.reviewCountTextLinkedHistogram',
      '[data-hook="average-star-rating"] .a-icon-alt',
      '[data-hook="rating-out-of-text"]',
      '[data-hook="average-stars-rating-anywhere"] .a-icon-alt',
      '#acrCustomerReviewLink .a-icon-alt',
    ]),
  ];
  for (const text of sources) {
    const rating = text ? parseRating(text, m) : undefined;
    if (rating !== undefined) return rating;
  }
  return undefined;
}

function readRatingsTotal(page: Page, m: Marketplace): number | undefined {
  const text = firstVisibleText(page, [
    '#acrCustomerReviewText',
    '#acrCustomerReviewLink',
    '[data-hook="total-review-count"]',
    '#dp-summary-see-all-reviews',
  ]);
  return text ? parseCount(text, m) : undefined;
}
