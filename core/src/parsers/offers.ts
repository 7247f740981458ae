import type { MessageInitShape } from '@bufbuild/protobuf';
import type { OfferSchema, OffersPageSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { loadIndexedPage, selectAll, selectFirst, type Page } from './common/page.js';
import { attrOf, cleanText, firstRawText, firstText, textOf, type AnyNode } from './results/dom.js';
import { formatDisplay, readCount, readPrice, readRating, type PriceInit } from './results/locale.js';
import { parsePageInfo } from './results/page-info.js';

export type OffersPageInit = MessageInitShape<typeof OffersPageSchema>;
type OfferInit = MessageInitShape<typeof OfferSchema>;

export interface OffersParseContext {
  readonly marketplace: Marketplace;
  readonly asin: string;
  readonly page?: number;
}

/*
 * The all-offers display in its two layouts:
 * - the current ajax display (`/gp/product/ajax/aodAjaxMain`, "AOD"): `#aod-pinned-offer` is the
 *   featured (buy-box) offer, each `#aod-offer` another one;
 * - the legacy `/gp/offer-listing/ASIN` page (retired ~2020): one `.olpOffer` row per offer.
 * Seller ids come from the `seller=` parameter of the seller link (stable), the rest from text read
 * with the marketplace's locale.
 */
export function parseOffersPage(html: string, ctx: OffersParseContext): OffersPageInit {
  return readOffersPage(loadIndexedPage(html), ctx);
}

/** parseOffersPage on a loaded page. */
export function readOffersPage(page: Page, ctx: OffersParseContext): OffersPageInit {
  const m = ctx.marketplace;
  const offers: OfferInit[] = [];
  const pinned = selectAll(page, undefined, '#aod-pinned-offer');
  const aod = selectAll(page, undefined, '[id="aod-offer"]');
  if (pinned.length > 0 || aod.length > 0) {
    for (const el of pinned) offers.push(parseAodOffer(page, el, m, true));
    for (const el of aod) offers.push(parseAodOffer(page, el, m, false));
  } else {
    for (const el of selectAll(page, undefined, '.olpOffer')) offers.push(parseLegacyOffer(page, el, m));
  }
  const pageInfo = parsePageInfo(page, ctx.page ?? 1, offers.length);
  const total = Number(cleanText(attrOf(selectFirst(page, undefined, '#aod-total-offer-count'), 'value')));
  if (Number.isInteger(total) && total > 0) pageInfo.totalResults = BigInt(total + (pinned.length > 0 ? 1 : 0));
  return { offers, pageInfo };
}

/** Words meaning "new" as the condition headings write it (first word of the heading). */
const NEW_WORDS = /^(new|neu|nuevo|neuf|nuovo|novo|nowy|新品)\b/i;
/** Words meaning free delivery. */
const FREE_WORDS = /(free|gratis|grátis|gratuit|kostenlos|gratuita|darmowa|無料)/i;

function conditionIsNew(text: string | undefined): boolean | undefined {
  if (!text) return undefined;
  return NEW_WORDS.test(text.replace(/^[^\p{L}]+/u, ''));
}

function sellerIdFromHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  return /[?&]seller=([A-Z0-9]{6,20})/i.exec(href)?.[1];
}

function percentPositive(text: string | undefined): number | undefined {
  const pct = /(\d{1,3})\s*%/.exec(text ?? '')?.[1];
  return pct === undefined ? undefined : Number(pct);
}

/** The count in parentheses ("(623,885 total ratings)", "(2982 avaliações)"). */
function ratingsTotal(text: string | undefined): number | undefined {
  const inParens = /\(([^)]*\d[^)]*)\)/.exec(text ?? '')?.[1];
  return readCount(inParens);
}

/** Delivery price from a delivery line: 0 for "FREE Shipping"/"Entrega GRÁTIS", else the amount shown. */
function deliveryPrice(text: string | undefined, m: Marketplace): PriceInit | undefined {
  if (!text) return undefined;
  if (FREE_WORDS.test(text)) return { symbol: m.currencySymbol, value: 0, currency: m.currency, display: formatDisplay(0, m) };
  const symbol = m.currencySymbol.replace(/[$]/g, '\\$');
  const amount = new RegExp(`(?:${symbol}|${m.currency})\\s*\\d[\\d.,\\u00a0\\u202f]*|\\d[\\d.,\\u00a0\\u202f]*\\s*(?:${symbol}|${m.currency})`).exec(text)?.[0];
  return amount ? readPrice(amount, m) : undefined;
}

/** The text of several elements joined (cheerio's `.find(selector).text()`). */
const textOfAll = (els: readonly AnyNode[]) => els.map(textOf).join('');

function parseLegacyOffer(page: Page, row: AnyNode, m: Marketplace): OfferInit {
  const offer: OfferInit = { isPrime: selectAll(page, row, 'i.a-icon-prime, .supersaver').length > 0 };
  const id = cleanText(attrOf(selectFirst(page, row, 'input[name^="offeringID"]'), 'value'));
  if (id) offer.id = id;
  const price = readPrice(firstRawText(page, row, ['.olpOfferPrice']), m);
  if (price) offer.price = price;
  const isNew = conditionIsNew(firstText(page, row, ['.olpCondition']));
  if (isNew !== undefined) offer.conditionIsNew = isNew;
  const delivery: NonNullable<OfferInit['delivery']> = {};
  const shipping = firstText(page, row, ['.olpShippingInfo']);
  const shippingPrice = shipping ? deliveryPrice(shipping.replace(/\+?\s*[^+]*estimated tax.*/i, ''), m) : undefined;
  if (shippingPrice?.value !== undefined) delivery.price = shippingPrice.value;
  const comments = firstText(page, row, ['.olpAvailability .a-expander-content', '.olpAvailability', '.olpDeliveryColumn .a-list-item']);
  if (comments) delivery.comments = comments;
  const sellerLink = selectFirst(page, row, '.olpSellerName a');
  delivery.fulfilledByRetail = /isAmazonFulfilled=1/.test(attrOf(sellerLink, 'href') ?? '') || selectAll(page, row, '.olpBadge, [data-fba]').length > 0;
  offer.delivery = delivery;
  offer.seller = sellerOf(m, {
    name: cleanText(textOf(sellerLink)) ?? cleanText(attrOf(selectFirst(page, row, '.olpSellerName img'), 'alt')),
    href: attrOf(sellerLink, 'href'),
    stars: readRating(firstText(page, row, ['.olpSellerColumn .a-icon-alt']), m),
    ratingText: cleanText(textOf(selectFirst(page, row, '.olpSellerColumn p'))),
  });
  return offer;
}

function parseAodOffer(page: Page, block: AnyNode, m: Marketplace, pinned: boolean): OfferInit {
  const offer: OfferInit = { buyboxWinner: pinned, isPrime: selectAll(page, block, 'i.a-icon-prime, .aod-prime-badge, [aria-label*="Prime"]').length > 0 };
  const id = cleanText(attrOf(selectFirst(page, block, 'input[name^="offeringID"]'), 'value'));
  if (id) offer.id = id;
  const priceText =
    firstRawText(page, block, ['[id^="aod-price-"] .apex-pricetopay-accessibility-label', '[id^="aod-price-"] .a-price:not(.a-text-price) .a-offscreen']) ??
    assembledPrice(page, block);
  const price = readPrice(priceText, m);
  if (price) offer.price = price;
  const isNew = conditionIsNew(firstText(page, block, ['#aod-offer-heading']));
  if (isNew !== undefined) offer.conditionIsNew = isNew;
  const delivery: NonNullable<OfferInit['delivery']> = {};
  const deliveryText = firstText(page, block, ['#mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE', '#mir-layout-DELIVERY_BLOCK', '.aod-delivery-promise']);
  const shipping = deliveryPrice(firstText(page, block, ['.aod-ship-charge']) ?? deliveryText, m);
  if (shipping?.value !== undefined) delivery.price = shipping.value;
  if (deliveryText) delivery.comments = deliveryText;
  const soldBy = selectFirst(page, block, '#aod-offer-soldBy a[href]');
  const shipsFrom = firstText(page, block, ['#aod-offer-shipsFrom .a-col-right']);
  delivery.fulfilledByRetail = /^amazon/i.test(shipsFrom ?? '') || /isAmazonFulfilled=1/.test(attrOf(soldBy, 'href') ?? '');
  offer.delivery = delivery;
  const ratingArea = selectFirst(page, block, '#aod-offer-seller-rating');
  offer.seller = sellerOf(m, {
    name: cleanText(textOf(soldBy)) ?? firstText(page, block, ['#aod-offer-soldBy .a-col-right']),
    href: attrOf(soldBy, 'href'),
    stars: readRating(cleanText(ratingArea ? textOfAll(selectAll(page, ratingArea, '.a-icon-alt')) : ''), m),
    ratingText: cleanText(textOf(ratingArea)),
  });
  return offer;
}

/** What an offer shows of its seller, in either layout. */
interface SellerSeen {
  readonly name: string | undefined;
  /** The storefront link, whose `seller=ID` names the seller. */
  readonly href: string | undefined;
  readonly stars: number | undefined;
  /** The rating line: "95% positive … (1,234 ratings)". */
  readonly ratingText: string | undefined;
}

/** The offer's seller record; the link is rebuilt on the marketplace from the seller id. */
function sellerOf(m: Marketplace, seen: SellerSeen): NonNullable<OfferInit['seller']> {
  const seller: NonNullable<OfferInit['seller']> = {};
  if (seen.name) seller.name = seen.name;
  const sellerId = sellerIdFromHref(seen.href);
  if (sellerId) {
    seller.id = sellerId;
    seller.link = `${m.origin}/sp?seller=${sellerId}`;
  }
  if (seen.stars !== undefined) seller.rating = seen.stars;
  const pct = percentPositive(seen.ratingText);
  if (pct !== undefined) seller.ratingsPercentagePositive = pct;
  const total = ratingsTotal(seen.ratingText);
  if (total !== undefined) seller.ratingsTotal = BigInt(total);
  return seller;
}

/** "R$" + "3.374" + "," + "10" from the visible price spans when no offscreen label exists. */
function assembledPrice(page: Page, block: AnyNode): string | undefined {
  const price = selectFirst(page, block, '[id^="aod-price-"] .a-price');
  if (!price) return undefined;
  const whole = cleanText(textOfAll(selectAll(page, price, '.a-price-whole')));
  if (!whole) return undefined;
  return `${cleanText(textOfAll(selectAll(page, price, '.a-price-symbol'))) ?? ''}${whole}${cleanText(textOfAll(selectAll(page, price, '.a-price-fraction'))) ?? ''}`;
}
