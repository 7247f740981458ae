import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ProductResultSchema } from '@retail/contract';
import type { Marketplace } from '../../marketplaces/types.js';
import type { Page } from '../common/page.js';
import { elementTest } from '../common/selector-match.js';
import { textWithout } from '../common/node-reads.js';
import { attr, cardIndex, closest, hasClass } from './card-index.js';
import { asinFromHref, attrOf, cleanText, isAsin, textOf, type AnyNode, type Element } from './dom.js';
import { readCount, readPrice, readRating } from './locale.js';

export type ProductResultInit = MessageInitShape<typeof ProductResultSchema>;

/*
 * One product card as search, storefront, category and author pages render it. Three layouts are
 * known: the 2020+ `s-search-result` cards, the 2018–19 `li.s-result-item` cards and the best-seller
 * grid (see bestsellers.ts, which reuses the field readers below). Sources, most stable first:
 * data attributes (`data-asin`), then marketplace ids/classes, then visible text read with the
 * marketplace's locale words. The readers filter the card's elements collected in one walk
 * (card-index.ts) rather than run a selector per question.
 */

/** Trimmed of ordinary white space only: prices keep the marketplace's no-break spaces. */
const rawText = (_page: Page, el: AnyNode) => textOf(el).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

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

/** What a title's text leaves out: screen-reader copies and inline scripts. */
const isHiddenInTitle = elementTest('.a-offscreen, script, style');

export function readTitle(page: Page, card: AnyNode, m: Marketplace): string | undefined {
  const index = cardIndex(page, card);
  const candidates: string[] = [];
  for (const el of index.byTag('h2')) {
    const attrTitle = cleanText(attr(el, 'data-attribute'));
    // The heading's text without its screen-reader copies and inline scripts.
    const text = attrTitle ?? cleanText(textWithout(el, isHiddenInTitle));
    if (text) candidates.push(stripSponsoredLabel(text, m));
  }
  const linkTitle = index.byClass('s-access-detail-page').map((a) => cleanText(attr(a, 'title'))).find((t) => t);
  if (linkTitle) candidates.push(linkTitle);
  // The longest heading is the title; short ones are brand lines of grid cards.
  candidates.sort((a, b) => b.length - a.length);
  return candidates[0];
}

/**
 * The card's price, first match of: the price recipe's main price, any main (not struck-through)
 * price, the 2018–19 `.s-price`/`.sx-price`, any price, `.a-color-price`.
 */
export function readCardPrice(page: Page, card: AnyNode, m: Marketplace) {
  const index = cardIndex(page, card);
  const offscreen = index.byClass('a-offscreen');
  const inMainPrice = (el: Element) => hasClass(el.parent, 'a-price') && !hasClass(el.parent, 'a-text-price');
  const inRecipe = (el: Element) => closest(el, card, (n) => attr(n, 'data-cy') === 'price-recipe') !== undefined;
  const inAnyPrice = (el: Element) => closest(el, card, (n) => hasClass(n, 'a-price')) !== undefined;
  const groups: Element[][] = [
    offscreen.filter((el) => inMainPrice(el) && inRecipe(el)),
    offscreen.filter(inMainPrice),
    index.byClass('s-price'),
    index.byClass('sx-price'),
    offscreen.filter(inAnyPrice),
    index.byClass('a-color-price'),
  ];
  for (const group of groups) {
    for (const el of group) {
      const price = readPrice(rawText(page, el), m);
      if (price) return price;
    }
  }
  return undefined;
}

export function readCardRating(page: Page, card: AnyNode, m: Marketplace): number | undefined {
  for (const el of cardIndex(page, card).all) {
    if (!hasClass(el, 'a-icon-alt') && attr(el, 'aria-label') === undefined) continue;
    const text = cleanText(textOf(el));
    const rating = readRating(cleanText(attr(el, 'aria-label')) ?? text, m) ?? readRating(text, m);
    if (rating !== undefined) return rating;
  }
  return undefined;
}

export function readCardRatingsTotal(page: Page, card: AnyNode, m: Marketplace): number | undefined {
  const index = cardIndex(page, card);
  const links = index.byTag('a');
  // 2024+: a count link whose aria-label names the count ("381 ratings", "183個の評価").
  const words = m.words.ratingsCountWords.map((w) => w.toLowerCase());
  for (const a of links) {
    const label = cleanText(attr(a, 'aria-label'));
    if (label && readRating(label, m) === undefined && words.some((w) => label.toLowerCase().includes(w))) {
      const count = readCount(label);
      if (count !== undefined) return count;
    }
  }
  // Earlier layouts: the link to #customerReviews shows the count as its text.
  for (const a of links) {
    if (!(attr(a, 'href') ?? '').includes('customerReviews')) continue;
    const text = cleanText(textOf(a));
    if (text && /\d/.test(text)) return readCount(text);
  }
  for (const span of index.byTag('span')) {
    const label = cleanText(attr(span, 'aria-label'));
    if (label && /^[\d.,\s\u00a0]+$/.test(label)) return readCount(label);
  }
  return undefined;
}

export function readIsPrime(page: Page, card: AnyNode): boolean {
  const index = cardIndex(page, card);
  return (
    index.byClass('a-icon-prime').some((el) => el.name === 'i') ||
    index.byClass('s-prime').length > 0 ||
    index.byClass('a-icon-prime-jp').length > 0 ||
    index.all.some((el) => attr(el, 'aria-label') === 'Amazon Prime')
  );
}

const SPONSORED_CLASSES = ['AdHolder', 'puis-sponsored-label-text', 's-sponsored-label-text', 's-sponsored-header'];
const LABEL_CLASSES = ['s-label-popover-default', 'puis-label-popover-default', 'a-color-secondary'];

export function readSponsored(page: Page, card: AnyNode, m: Marketplace): boolean {
  const index = cardIndex(page, card);
  if (hasClass(card, 'AdHolder')) return true;
  if (SPONSORED_CLASSES.some((c) => index.byClass(c).length > 0)) return true;
  if (index.all.some((el) => attr(el, 'data-component-type') === 'sp-sponsored-result')) return true;
  if (index.byTag('a').some((a) => /\/sspa\/click|picassoRedirect/.test(attr(a, 'href') ?? ''))) return true;
  const words = m.words.sponsored.map((w) => w.toLowerCase());
  return LABEL_CLASSES.some((c) => index.byClass(c).some((el) => words.includes((cleanText(textOf(el)) ?? '').toLowerCase())));
}

export function readCoupon(page: Page, card: AnyNode): { label: string } | undefined {
  const index = cardIndex(page, card);
  const holder = index.byClass('s-coupon-unclipped')[0] ?? index.all.find((el) => attr(el, 'data-component-type') === 's-coupon-component');
  const label = holder ? cleanText(textOf(holder)) : undefined;
  return label ? { label } : undefined;
}

export function readImage(page: Page, card: AnyNode): string | undefined {
  const images = cardIndex(page, card).byTag('img');
  const ordered = [...images.filter((i) => hasClass(i, 's-image')), ...images.filter((i) => hasClass(i, 's-access-image')), ...images];
  return ordered.map((i) => cleanText(attr(i, 'src'))).find((src) => src);
}

/** The card's ASIN: its `data-asin`, else the first product link. */
export function readCardAsin(page: Page, card: AnyNode): string | undefined {
  const dataAsin = cleanText(attrOf(card, 'data-asin'))?.toUpperCase();
  if (isAsin(dataAsin)) return dataAsin;
  for (const a of cardIndex(page, card).byTag('a')) {
    const asin = asinFromHref(attr(a, 'href'));
    if (asin) return asin;
  }
  return undefined;
}

/** Every ProductResult field a card shows. */
export function parseResultCard(page: Page, card: AnyNode, m: Marketplace): ProductResultInit | undefined {
  const asin = readCardAsin(page, card);
  if (!asin) return undefined;
  const result: ProductResultInit = {
    asin,
    url: `${m.origin}/dp/${asin}`,
    isPrime: readIsPrime(page, card),
    sponsored: readSponsored(page, card, m),
  };
  const title = readTitle(page, card, m);
  if (title) result.title = title;
  const price = readCardPrice(page, card, m);
  if (price) result.price = price;
  const image = readImage(page, card);
  if (image) result.mainImageUrl = image;
  const rating = readCardRating(page, card, m);
  if (rating !== undefined) result.rating = rating;
  const ratingsTotal = readCardRatingsTotal(page, card, m);
  if (ratingsTotal !== undefined) result.ratingsTotal = BigInt(ratingsTotal);
  const coupon = readCoupon(page, card);
  if (coupon) result.coupon = coupon;
  return result;
}
