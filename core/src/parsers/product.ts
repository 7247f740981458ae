import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type ProductSchema } from '@retail/contract';
import { CoreError } from '../errors.js';
import { parseCount, parseRating, type Marketplace } from '../marketplaces/index.js';
import { cleanText, firstAttr, firstVisibleText, isHiddenContent, type CheerioAPI, type Element } from './common/dom.js';
import { textWithout } from './common/node-reads.js';
import { selectFirst } from './common/page-registry.js';
import { elementTest } from './common/selector-match.js';
import { readDetailRows, type DetailRow } from './product-details.js';
import { isUsedOffer, readBrand, readInStock, readIsPrime } from './product-buybox.js';
import { readImageUrls, readMainImage } from './product-media.js';
import { readBuyBoxPrice } from './product-price.js';
import { readCategories, readCoupon, readFeatureBullets, readSeller } from './product-sections.js';
import { readStructuredData } from './product-structured-data.js';
import { loadIndexedPage } from './results/dom.js';

export type ProductInit = MessageInitShape<typeof ProductSchema>;

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
 * Parses a product page into the product record of SPEC.md. Pure: no I/O, no clock. A page without a
 * title is not a product page the parser understands: UPSTREAM_ERROR, never a half-empty record.
 */
export function parseProductPage(html: string, ctx: ProductParseContext): ParsedProductPage {
  return readProductPage(loadIndexedPage(html), html, ctx);
}

/**
 * parseProductPage on a loaded page (product-page.ts reads every part of /dp/ from one load). The
 * page is only read, never changed: it is loaded with the page index (results/dom.ts).
 */
export function readProductPage($: CheerioAPI, html: string, ctx: ProductParseContext): ParsedProductPage {
  const m = ctx.marketplace;
  const structured = readStructuredData($);
  const title = readTitle($) ?? structured?.name;
  if (!title) {
    throw new CoreError(ErrorReason.UPSTREAM_ERROR, 'The marketplace returned a product page the service could not read', {
      cause: new Error('product page without a title'),
    });
  }
  const detailRows = mergeRows(readDetailRows($), structured?.rows ?? []);
  const asin = readAsin($) ?? ctx.asin.toUpperCase();
  const price = readBuyBoxPrice($, m);
  const mainImageUrl = readMainImage($) ?? structured?.image;
  const rating = readRating($, m) ?? structured?.rating;
  const ratingsTotal = readRatingsTotal($, m) ?? structured?.ratingsTotal;
  const brand = readBrand($, detailRows, m);
  const isInStock = readInStock($, m, price !== undefined);
  const subtitle = firstVisibleText($, ['#productSubtitle']);

  const product: ProductInit = {
    title,
    ...(subtitle ? { subtitle } : {}),
    ...(brand ? { brand } : {}),
    url: `${m.origin}/dp/${asin}`,
    asin,
    ...(price ? { isPrime: readIsPrime($), isNew: !isUsedOffer($) } : {}),
    ...(isInStock !== undefined ? { isInStock } : {}),
    ...(price ? { price } : {}),
    ...(mainImageUrl ? { mainImageUrl } : {}),
    imageUrls: readImageUrls($, html, mainImageUrl),
    ...(rating !== undefined ? { rating } : {}),
    ...(ratingsTotal !== undefined ? { ratingsTotal: BigInt(ratingsTotal) } : {}),
    featureBullets: readFeatureBullets($),
    technicalSpecifications: detailRows.map((r) => ({ name: r.name, value: r.value })),
    categories: readCategories($, m),
    ...(readCoupon($) ?? {}),
    ...(readSeller($) ?? {}),
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

function readTitle($: CheerioAPI): string | undefined {
  for (const selector of TITLE) {
    const text = cleanText(textWithout(selectFirst($, undefined, selector), notInTitle));
    if (text) return text;
  }
  return undefined;
}

function readAsin($: CheerioAPI): string | undefined {
  const value = firstAttr($, undefined, ['input#ASIN', 'input[name="ASIN"]', 'input[name="ASIN.0"]'], 'value')?.toUpperCase();
  return value && /^[A-Z0-9]{10}$/.test(value) ? value : undefined;
}

function readRating($: CheerioAPI, m: Marketplace): number | undefined {
  const sources = [
    firstAttr($, undefined, ['#acrPopover'], 'title'),
    firstVisibleText($, [
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

function readRatingsTotal($: CheerioAPI, m: Marketplace): number | undefined {
  const text = firstVisibleText($, [
    '#acrCustomerReviewText',
    '#acrCustomerReviewLink',
    '[data-hook="total-review-count"]',
    '#dp-summary-see-all-reviews',
  ]);
  return text ? parseCount(text, m) : undefined;
}
