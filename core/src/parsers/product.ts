import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type ProductSchema } from '@retail/contract';
import { CoreError } from '../errors.js';
import { parseCount, parseRating, type Marketplace } from '../marketplaces/index.js';
import { absoluteUrl, cleanText, firstAttr, firstVisibleText, loadHtml, visibleText, type CheerioAPI } from './common/dom.js';
import { withDomIndex } from './common/indexed-query.js';
import { detailValue, readDetailRows, type DetailRow } from './product-details.js';
import { readImageUrls, readMainImage } from './product-media.js';
import { readBuyBoxPrice } from './product-price.js';
import { readStructuredData } from './product-structured-data.js';

export type ProductInit = MessageInitShape<typeof ProductSchema>;

/**
 * Version of the product page parser's output. A page cache keyed by URL and this number never
 * serves a shape an older parser produced: bump it with every change to what parsing yields.
 */
export const PRODUCT_PARSER_VERSION = 1;

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
  const $ = withDomIndex(loadHtml(html));
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

function readTitle($: CheerioAPI): string | undefined {
  for (const selector of TITLE) {
    const el = $(selector).first().clone();
    if (el.length === 0) continue;
    // Video titles carry the release year in a span of their own.
    el.find('.release-year').remove();
    const text = visibleText($, el);
    if (text) return text;
  }
  return undefined;
}

function readAsin($: CheerioAPI): string | undefined {
  const value = firstAttr($, ['input#ASIN', 'input[name="ASIN"]', 'input[name="ASIN.0"]'], 'value')?.toUpperCase();
  return value && /^[A-Z0-9]{10}$/.test(value) ? value : undefined;
}

function readRating($: CheerioAPI, m: Marketplace): number | undefined {
  const sources = [
    firstAttr($, ['#acrPopover'], 'title'),
    firstVisibleText($, [
      '#acrPopover .a-icon-alt',
      '#averageCustomerReviews .a-icon-alt',
      '#acrPopover',
      '.reviewCountTextLinkedHistogram',
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

/**
 * Byline forms of a brand: "Visit the X Store", "Brand: X", "Marke: X", "Visite a loja X", ...
 * (The marketplace words module has no byline entry yet; these belong there when it gets one.)
 */
const BYLINE_BRAND = [
  /^Visit the (.+?) Store$/i,
  /^Besuche(?:n Sie)? den (.+?)[- ]Store$/i,
  /^Visite[rz] la boutique (.+)$/i,
  /^Odwiedź sklep (.+)$/i,
  /^(.+?)ストアを表示$/,
  /^Visita la tienda de (.+)$/i,
  /^Visita lo Store di (.+)$/i,
  /^Visite a loja (?:da |do |de )?(.+)$/i,
  /^(?:Brand|Marke|Marque|Marca|Marchio|Marka|ブランド)\s*[:：]\s*(.+)$/i,
];

function readBrand($: CheerioAPI, rows: readonly DetailRow[], m: Marketplace): string | undefined {
  const byline = $('#bylineInfo').first();
  // Books and media put contributors in the byline ("by X (Author)", "Y (Artist) Format: CD"): no brand.
  const isContributors = byline.find('.author, .contribution').length > 0;
  const text = visibleText($, byline);
  if (text && !isContributors && !/[()]|Format\s*:/.test(text)) {
    for (const pattern of BYLINE_BRAND) {
      const match = pattern.exec(text);
      if (match?.[1]) return cleanText(match[1]);
    }
    if (text.length <= 60) return text;
  }
  return detailValue(rows, m.words.detailLabels.brand) ?? cleanText($('#brand').first().text());
}

function matchesAny(text: string, phrases: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return phrases.some((p) => lower.includes(p.toLowerCase()));
}

/** In stock from the availability text; an add-to-cart button counts when there is no text. */
function readInStock($: CheerioAPI, m: Marketplace, hasPrice: boolean): boolean | undefined {
  const text = firstVisibleText($, ['#availability', '#outOfStock', '#availability_feature_div']);
  if (text) {
    if (matchesAny(text, m.words.availability.outOfStock)) return false;
    if (matchesAny(text, m.words.availability.inStock)) return true;
    if (m.words.availability.onlyLeftPatterns.some((p) => p.test(text))) return true;
  }
  if ($('#outOfStock').length > 0) return false;
  if (($('#add-to-cart-button').length > 0 || $('#buy-now-button').length > 0) && hasPrice) return true;
  return undefined;
}

const PRIME_BADGES = [
  '#priceBadging_feature_div i.a-icon-prime',
  '#corePrice_feature_div i.a-icon-prime',
  '#price i.a-icon-prime',
  '#buybox i.a-icon-prime',
  '#bbop-sbbop-container',
  '#prime-badge',
];

function readIsPrime($: CheerioAPI): boolean {
  return PRIME_BADGES.some((selector) => $(selector).length > 0);
}

function isUsedOffer($: CheerioAPI): boolean {
  return $('#usedBuySection.a-accordion-active, #usedAccordionRow.a-accordion-active').length > 0;
}

function readFeatureBullets($: CheerioAPI): string[] {
  const bullets: string[] = [];
  for (const li of $('#feature-bullets li').toArray()) {
    // Hidden bullets (the "make sure this fits" fitment prompt) are not features.
    if ($(li).closest('.aok-hidden, #replacementPartsFitmentBullet').length > 0) continue;
    const span = $(li).find('span.a-list-item').first();
    const text = visibleText($, span.length > 0 ? span : li);
    if (text && !bullets.includes(text)) bullets.push(text);
  }
  return bullets;
}

/** The wayfinding breadcrumb, root first; "back to results" links are not categories. */
function readCategories($: CheerioAPI, m: Marketplace): NonNullable<ProductInit['categories']> {
  const names: { name: string; href?: string }[] = [];
  const links = $('#wayfinding-breadcrumbs_feature_div li a').toArray();
  for (const a of links.length > 0 ? links : $('#wayfinding-breadcrumbs_container li a').toArray()) {
    if ($(a).closest('#breadcrumb-back-link, .a-breadcrumb-divider').length > 0 || $(a).attr('id') === 'breadcrumb-back-link') continue;
    const name = visibleText($, a);
    if (name) names.push({ name, href: $(a).attr('href') });
  }
  return names.map((c, i) => {
    const url = absoluteUrl(c.href, m.origin);
    const id = url ? (new URL(url).searchParams.get('node') ?? undefined) : undefined;
    return {
      name: c.name,
      ...(id ? { id } : {}),
      ...(url ? { url } : {}),
      breadcrumbPath: names.slice(0, i + 1).map((n) => n.name).join(' > '),
    };
  });
}

function readCoupon($: CheerioAPI): { coupon: { label: string } } | undefined {
  const label = firstVisibleText($, [
    '#couponBadgeRegularVpc .couponLabelText',
    '#couponBadgeRegularVpc',
    '#couponBadge .couponLabelText',
    '#couponBadge',
    // Clip-the-coupon checkbox ("Apply 5% voucher"); its "Details" link is not part of the label.
    '#vpcButton .a-checkbox-label',
    '#vpcButton .a-color-success',
    '#promoPriceBlockMessage_feature_div .couponLabelText',
    '.couponLabelText',
  ]);
  return label ? { coupon: { label } } : undefined;
}

function readSeller($: CheerioAPI): { seller: { sellerId?: string; name: string } } | undefined {
  const link = $('#sellerProfileTriggerId').first().length
    ? $('#sellerProfileTriggerId').first()
    : $('#merchant-info a[href*="seller="]').first().length
      ? $('#merchant-info a[href*="seller="]').first()
      : $('#merchantInfoFeature_feature_div a[href*="seller="]').first();
  if (link.length > 0) {
    const name = visibleText($, link);
    const href = link.attr('href') ?? link.closest('a').attr('href') ?? '';
    const sellerId = /[?&]seller=([A-Z0-9]+)/.exec(href)?.[1];
    if (name) return { seller: { ...(sellerId ? { sellerId } : {}), name } };
  }
  // Sold by the marketplace itself: the current buy box names it without a seller link.
  const name = firstVisibleText($, ['#merchantInfoFeature_feature_div .offer-display-feature-text-message']);
  return name ? { seller: { name } } : undefined;
}
