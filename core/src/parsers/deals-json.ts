import type { Marketplace } from '../marketplaces/types.js';
import type { ProductResultInit } from './results/card.js';
import { formatDisplay, type PriceInit } from './results/locale.js';
import { cleanText } from './common/dom.js';

/*
 * The deals page's embedded state. The grid is a client-side app whose first page arrives as JSON,
 * either in an `<script type="a-state" data-a-state='{"key":"…deals…"}'>` (or `application/json`)
 * block or, on the 2025 grid ("discount-asin-grid", read on the first real deals page of the corpus,
 * BR), as the configuration an inline script passes to `assets.mountWidget('slot-N', {…})`:
 *   { "prefetchedData": { "entity": { "rankedPromotions": [ {
 *       "id", "type", "product": { "entity": { "asin", "title": {"entity": {"displayString"}},
 *         "productImages": {"entity": {"images": [{"lowRes": {"url"}} | {"hiRes": {"physicalId", "extension"}}]}},
 *         "customerReviewsSummary": {"entity": {"rating": {"value"}, "count": {"value"}}},
 *         "links": {"entity": {"viewOnAmazon": {"url"}}},
 *         "buyingOptions": [ { "dealBadge": {"entity": {"label": {"content": {"fragments": [{"text"}]}},
 *                                                     "messaging": {"shortContent": {"fragments": [{"text"}]}}}},
 *           "dealDetails": {"entity": {"dealId" | "id", "type", "startTime", "endTime"}},
 *           "price": {"entity": {"priceToPay": {"moneyValueOrRange": {"value": {"amount", "currencyCode"}}},
 *                                "basisPrice": {…}, "savings": {"percentage": {"value"}}}},
 *           "primeDetails": {"entity": {"isPrimeEligible"}} } ] } } } ],
 *     "totalCount", "nextIndex" } } }
 * Readers below tolerate missing levels and a few older key spellings (`dealID`, `impressionAsin`,
 * `msToEnd`-less flat objects); anything not a single amount (a price range) is omitted.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `get(o, 'a', 'b', 0)`: the value at a path, undefined when any level is missing. */
export function get(value: unknown, ...path: (string | number)[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof key === 'number') at = Array.isArray(at) ? at[key] : undefined;
    else at = isObj(at) ? at[key] : undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/** An object's `entity` when it has one (the state wraps most values in `{entity: …}`). */
const entity = (v: unknown): unknown => (isObj(v) && 'entity' in v ? v.entity : v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? cleanText(v) : typeof v === 'number' ? String(v) : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** The text fragments of a `{fragments: [{text}, {countdownTimer}]}` content, joined; undefined when none has text. */
function fragmentsText(fragments: unknown): string | undefined {
  return Array.isArray(fragments) ? cleanText(fragments.map((f) => str(get(f, 'text')) ?? '').join(' ')) : undefined;
}

/** Text of a `{label: {content: {fragments: [{text}]}}}` badge label, or a plain string. */
function labelText(v: unknown): string | undefined {
  const e = entity(v);
  if (typeof e === 'string') return cleanText(e);
  return fragmentsText(get(e, 'label', 'content', 'fragments') ?? get(e, 'content', 'fragments')) ?? str(get(e, 'label')) ?? str(get(e, 'text'));
}

/*
 * The badge of the 2025 grid is two parts: a filled label with the percent off ("14% off") and a
 * message naming the deal ("Oferta", "Limited time deal", "Com Prime"); the message's full content
 * may instead be a countdown ("Termina em " + a timer), its short content keeps the name. The deal's
 * badge is that name; a badge without a message (the older single label) is its label.
 */
function badgeName(v: unknown): string | undefined {
  const messaging = get(entity(v), 'messaging');
  return fragmentsText(get(messaging, 'shortContent', 'fragments')) ?? fragmentsText(get(messaging, 'content', 'fragments')) ?? labelText(v);
}

/** "14% off", "-14 %", "14% OFF": the percent a badge label shows (0–100), undefined without one. */
export function percentIn(text: string | undefined): number | undefined {
  const percent = /(\d{1,3})\s?%/.exec(text ?? '')?.[1];
  return percent !== undefined && Number(percent) <= 100 ? Number(percent) : undefined;
}

/** A single amount in the marketplace's currency; ranges and other currencies are omitted. */
function money(v: unknown, m: Marketplace): PriceInit | undefined {
  const e = entity(v);
  if (get(e, 'moneyValueOrRange', 'range') !== undefined) return undefined;
  const value = get(e, 'moneyValueOrRange', 'value') ?? e;
  const amount = num(get(value, 'amount'));
  const currency = str(get(value, 'currencyCode')) ?? m.currency;
  if (amount === undefined || currency !== m.currency) return undefined;
  return { symbol: m.currencySymbol, value: amount, currency, display: formatDisplay(amount, m) };
}

function isoTime(v: unknown): string | undefined {
  const text = str(v);
  if (!text) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function absoluteOnMarketplace(href: string | undefined, m: Marketplace): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, m.origin);
    return url.host === m.host || url.host === m.bareHost ? `${m.origin}${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}

/** Where the marketplace serves product images; the 2025 state names an image by its id and extension only. */
const IMAGE_ORIGIN = 'https://m.media-amazon.com/images/I/';

/** An image of `productImages`: its URL (`lowRes`, then `hiRes`), else built from `physicalId` + `extension`. */
function imageUrl(image: unknown): string | undefined {
  for (const size of ['lowRes', 'hiRes']) {
    const url = str(get(image, size, 'url'));
    if (url) return url;
  }
  for (const size of ['hiRes', 'lowRes']) {
    const id = str(get(image, size, 'physicalId'));
    const extension = str(get(image, size, 'extension')) ?? 'jpg';
    if (id && /^[\w+%-]+$/.test(id) && /^[a-z]+$/.test(extension)) return `${IMAGE_ORIGIN}${id}.${extension}`;
  }
  return undefined;
}

/** Every `rankedPromotions` array anywhere in a parsed state blob. */
export function findPromotionLists(state: unknown, out: unknown[][] = [], depth = 0): unknown[][] {
  if (depth > 12) return out;
  if (Array.isArray(state)) for (const item of state) findPromotionLists(item, out, depth + 1);
  else if (isObj(state)) {
    for (const [key, value] of Object.entries(state)) {
      if (key === 'rankedPromotions' && Array.isArray(value)) out.push(value);
      else findPromotionLists(value, out, depth + 1);
    }
  }
  return out;
}

/** The first number under `key` anywhere in the state (pagination facts sit beside the list). */
export function findNumber(state: unknown, key: string, depth = 0): number | undefined {
  if (depth > 12 || !(isObj(state) || Array.isArray(state))) return undefined;
  if (isObj(state) && key in state) {
    const n = num(state[key]);
    if (n !== undefined) return n;
  }
  for (const value of Object.values(state)) {
    const found = findNumber(value, key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** One promotion of the state as a deal result; undefined without an ASIN. */
export function dealFromPromotion(promotion: unknown, m: Marketplace): ProductResultInit | undefined {
  const product = entity(get(promotion, 'product')) ?? promotion;
  const asin = (str(get(product, 'asin')) ?? str(get(promotion, 'impressionAsin')))?.toUpperCase();
  if (!asin || !/^[A-Z0-9]{10}$/.test(asin)) return undefined;
  const buying = get(product, 'buyingOptions', 0) ?? promotion;
  const details = entity(get(buying, 'dealDetails')) ?? promotion;
  const priceBlock = entity(get(buying, 'price'));
  const deal: ProductResultInit = { asin, url: `${m.origin}/dp/${asin}`, sponsored: false, isPrime: false, authors: [] };

  const title = str(get(entity(get(product, 'title')), 'displayString')) ?? str(get(product, 'title'));
  if (title) deal.title = title;
  const image = imageUrl(get(entity(get(product, 'productImages')), 'images', 0)) ?? str(get(product, 'primaryImage'));
  if (image) deal.mainImageUrl = image;
  const reviews = entity(get(product, 'customerReviewsSummary'));
  const rating = num(get(reviews, 'rating', 'value')) ?? num(get(promotion, 'reviewRating'));
  if (rating !== undefined && rating >= 0 && rating <= 5) deal.rating = rating;
  const count = num(get(reviews, 'count', 'value')) ?? num(get(promotion, 'totalReviews'));
  if (count !== undefined && Number.isSafeInteger(count) && count >= 0) deal.ratingsTotal = BigInt(count);
  deal.isPrime = get(entity(get(buying, 'primeDetails')), 'isPrimeEligible') === true || get(promotion, 'isPrimeEligible') === true;

  const dealId = str(get(details, 'dealId')) ?? str(get(details, 'dealID')) ?? str(get(details, 'id')) ?? str(get(promotion, 'id'));
  if (dealId) deal.dealId = dealId;
  const type = str(get(details, 'type')) ?? str(get(promotion, 'type'));
  if (type) deal.dealType = type;
  deal.dealIsLightningDeal = /LIGHTNING/i.test(type ?? '');
  const badge = badgeName(get(buying, 'dealBadge'));
  if (badge) deal.dealBadge = badge;
  const dealUrl = absoluteOnMarketplace(str(get(entity(get(product, 'links')), 'viewOnAmazon', 'url')) ?? str(get(promotion, 'egressUrl')), m);
  if (dealUrl) deal.dealUrl = dealUrl;
  const dealPrice = money(get(priceBlock, 'priceToPay'), m);
  if (dealPrice) {
    deal.dealPrice = dealPrice;
    deal.price = { ...dealPrice };
  }
  const listPrice = money(get(priceBlock, 'basisPrice'), m);
  if (listPrice) deal.dealListPrice = listPrice;
  // Not every promotion states its savings (a deal without a struck basis price); its badge still shows the percent.
  const percent = num(get(priceBlock, 'savings', 'percentage', 'value')) ?? num(get(promotion, 'maxPercentOff')) ?? percentIn(labelText(get(buying, 'dealBadge')));
  if (percent !== undefined && percent >= 0 && percent <= 100) deal.dealPercentOff = percent;
  const start = isoTime(get(details, 'startTime'));
  if (start) deal.dealStartTime = start;
  const end = isoTime(get(details, 'endTime'));
  if (end) deal.dealEndTime = end;
  return deal;
}
