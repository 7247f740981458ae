import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ProductResultSchema } from '@retail/contract';
import type { Marketplace } from '../../marketplaces/types.js';
import { asinFromHref, cleanText, firstAttr, isAsin, type AnyNode, type CheerioAPI } from './dom.js';
import { readCount, readPrice, readRating } from './locale.js';

export type ProductResultInit = MessageInitShape<typeof ProductResultSchema>;

/*
 * One product card as search, storefront, category and author pages render it. Three layouts are
 * known: the 2020+ `s-search-result` cards, the 2018–19 `li.s-result-item` cards and the best-seller
 * grid (see bestsellers.ts, which reuses the field readers below). Sources, most stable first:
 * data attributes (`data-asin`), then marketplace ids/classes, then visible text read with the
 * marketplace's locale words.
 */

const PRICE_SELECTORS = [
  '[data-cy="price-recipe"] .a-price:not(.a-text-price) > .a-offscreen',
  '.a-price:not(.a-text-price) > .a-offscreen',
  '.s-price',
  '.sx-price',
  '.a-price .a-offscreen',
  '.a-color-price',
];

const IMAGE_SELECTORS = ['img.s-image', 'img.s-access-image', 'img'];

/** Sponsored-label text such as "[Gesponsert]" or "Sponsored Ad - " around a title. */
function stripSponsoredLabel(title: string, m: Marketplace): string {
  let out = title;
  for (const word of m.words.sponsored) {
    out = out.replace(new RegExp(`^\\[?${escape(word)}\\]?(?:\\s+Ad)?\\s*[-–:]?\\s*`, 'i'), '');
  }
  return out.trim();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function readTitle($: CheerioAPI, card: AnyNode, m: Marketplace): string | undefined {
  const candidates: string[] = [];
  for (const el of $(card).find('h2').toArray()) {
    const $el = $(el);
    const attrTitle = cleanText($el.attr('data-attribute'));
    const clone = $el.clone();
    clone.find('.a-offscreen, script, style').remove();
    const text = attrTitle ?? cleanText(clone.text());
    if (text) candidates.push(stripSponsoredLabel(text, m));
  }
  const linkTitle = firstAttr($, card, ['a.s-access-detail-page[title]'], 'title');
  if (linkTitle) candidates.push(linkTitle);
  // The longest heading is the title; short ones are brand lines of grid cards.
  candidates.sort((a, b) => b.length - a.length);
  return candidates[0];
}

export function readCardPrice($: CheerioAPI, card: AnyNode, m: Marketplace) {
  for (const selector of PRICE_SELECTORS) {
    for (const el of $(card).find(selector).toArray()) {
      const price = readPrice($(el).text().replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ''), m);
      if (price) return price;
    }
  }
  return undefined;
}

export function readCardRating($: CheerioAPI, card: AnyNode, m: Marketplace): number | undefined {
  for (const el of $(card).find('.a-icon-alt, [aria-label]').toArray()) {
    const $el = $(el);
    const rating = readRating(cleanText($el.attr('aria-label')) ?? cleanText($el.text()), m) ?? readRating(cleanText($el.text()), m);
    if (rating !== undefined) return rating;
  }
  return undefined;
}

export function readCardRatingsTotal($: CheerioAPI, card: AnyNode, m: Marketplace): number | undefined {
  const $card = $(card);
  // 2024+: a count link whose aria-label names the count ("381 ratings", "183個の評価").
  for (const el of $card.find('[data-csa-c-content-id*="ratings-count"] a, a[aria-label]').toArray()) {
    const label = cleanText($(el).attr('aria-label'));
    if (label && readRating(label, m) === undefined && m.words.ratingsCountWords.some((w) => label.toLowerCase().includes(w.toLowerCase()))) {
      const count = readCount(label);
      if (count !== undefined) return count;
    }
  }
  // Earlier layouts: the link to #customerReviews shows the count as its text.
  for (const el of $card.find('a[href*="customerReviews"]').toArray()) {
    const text = cleanText($(el).text());
    if (text && /\d/.test(text)) return readCount(text);
  }
  const labelled = $card.find('span[aria-label]').toArray().map((el) => cleanText($(el).attr('aria-label')));
  for (const label of labelled) if (label && /^[\d.,\s\u00a0]+$/.test(label)) return readCount(label);
  return undefined;
}

export function readIsPrime($: CheerioAPI, card: AnyNode): boolean {
  return $(card).find('i.a-icon-prime, .s-prime, [aria-label="Amazon Prime"], .a-icon-prime-jp').length > 0;
}

export function readSponsored($: CheerioAPI, card: AnyNode, m: Marketplace): boolean {
  const $card = $(card);
  if ($card.is('.AdHolder') || $card.find('.AdHolder').length > 0) return true;
  if ($card.find('.puis-sponsored-label-text, .s-sponsored-label-text, .s-sponsored-header, [data-component-type="sp-sponsored-result"]').length > 0) return true;
  if ($card.find('a[href*="/sspa/click"], a[href*="picassoRedirect"]').length > 0) return true;
  const words = m.words.sponsored.map((w) => w.toLowerCase());
  return $card
    .find('.s-label-popover-default, .puis-label-popover-default, .a-color-secondary')
    .toArray()
    .some((el) => words.includes((cleanText($(el).text()) ?? '').toLowerCase()));
}

export function readCoupon($: CheerioAPI, card: AnyNode): { label: string } | undefined {
  const label =
    cleanText($(card).find('.s-coupon-unclipped').first().text()) ??
    cleanText($(card).find('[data-component-type="s-coupon-component"]').first().text());
  return label ? { label } : undefined;
}

export function readImage($: CheerioAPI, card: AnyNode): string | undefined {
  return firstAttr($, card, IMAGE_SELECTORS, 'src');
}

/** The card's ASIN: its `data-asin`, else the first product link. */
export function readCardAsin($: CheerioAPI, card: AnyNode): string | undefined {
  const dataAsin = cleanText($(card).attr('data-asin'))?.toUpperCase();
  if (isAsin(dataAsin)) return dataAsin;
  for (const el of $(card).find('a[href]').toArray()) {
    const asin = asinFromHref($(el).attr('href'));
    if (asin) return asin;
  }
  return undefined;
}

/** Every ProductResult field a card shows. */
export function parseResultCard($: CheerioAPI, card: AnyNode, m: Marketplace): ProductResultInit | undefined {
  const asin = readCardAsin($, card);
  if (!asin) return undefined;
  const result: ProductResultInit = {
    asin,
    url: `${m.origin}/dp/${asin}`,
    isPrime: readIsPrime($, card),
    sponsored: readSponsored($, card, m),
  };
  const title = readTitle($, card, m);
  if (title) result.title = title;
  const price = readCardPrice($, card, m);
  if (price) result.price = price;
  const image = readImage($, card);
  if (image) result.mainImageUrl = image;
  const rating = readCardRating($, card, m);
  if (rating !== undefined) result.rating = rating;
  const ratingsTotal = readCardRatingsTotal($, card, m);
  if (ratingsTotal !== undefined) result.ratingsTotal = BigInt(ratingsTotal);
  const coupon = readCoupon($, card);
  if (coupon) result.coupon = coupon;
  return result;
}
