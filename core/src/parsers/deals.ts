import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PageInfoSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { cleanText, tryJson, type AnyNode } from './common/dom.js';
import { loadPlainPage, query, type Page } from './common/page.js';
import { dealFromPromotion, findNumber, findPromotionLists } from './deals-json.js';
import type { ProductResultInit } from './results/card.js';
import { readCardRating, readImage, readIsPrime } from './results/card.js';
import { readPrice } from './results/locale.js';

type PageInfoInit = MessageInitShape<typeof PageInfoSchema>;

/** Deals shown per page of the grid (the `viewIndex` step of the deals URL). */
export const DEALS_PAGE_SIZE = 60;

export interface DealsParseContext {
  readonly marketplace: Marketplace;
  /** The page that was requested (1-based). */
  readonly page: number;
}

export interface ParsedDeals {
  readonly results: ProductResultInit[];
  readonly pageInfo: PageInfoInit;
  /** Where the deals came from: the embedded state, the rendered cards, or neither. */
  readonly source: 'state' | 'cards' | 'none';
}

/*
 * The deals page (`/deals`). Sources, most stable first: the grid's embedded JSON state (see
 * deals-json.ts), then the rendered cards' data attributes (`data-testid="product-card"`,
 * `data-asin`, `data-deal-id`) and their visible text. When both exist, the state gives the fields
 * and the card gives each price's `display` exactly as the page writes it.
 */
export function parseDealsPage(html: string, ctx: DealsParseContext): ParsedDeals {
  return readDealsPage(loadPlainPage(html), ctx);
}

/** parseDealsPage on a loaded page. */
export function readDealsPage(page: Page, ctx: DealsParseContext): ParsedDeals {
  const m = ctx.marketplace;
  const states = query(page, 'script[type="a-state"], script[type="application/json"]')
    .toArray()
    .map((el) => tryJson(page.$(el).text().trim()))
    .filter((s) => s !== undefined);
  const fromState = dedupe(states.flatMap((s) => findPromotionLists(s)).flatMap((list) => list.map((p) => dealFromPromotion(p, m))));
  const cards = findDealCards(page);
  const total = states.map((s) => findNumber(s, 'totalCount')).find((n) => n !== undefined);
  if (fromState.length > 0) {
    for (const deal of fromState) {
      const card = cards.find((c) => page.$(c).attr('data-asin')?.toUpperCase() === deal.asin);
      if (card) useCardDisplays(page, card, deal, m);
    }
    return { results: fromState, pageInfo: pageInfo(ctx.page, total, fromState.length), source: 'state' };
  }
  const fromCards = dedupe(cards.map((card) => dealFromCard(page, card, m)));
  return { results: fromCards, pageInfo: pageInfo(ctx.page, total, fromCards.length), source: fromCards.length > 0 ? 'cards' : 'none' };
}

function dedupe(deals: (ProductResultInit | undefined)[]): ProductResultInit[] {
  const seen = new Set<string>();
  return deals.filter((d): d is ProductResultInit => {
    if (!d?.asin) return false;
    const key = `${d.asin}|${d.dealId ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function findDealCards(page: Page): AnyNode[] {
  return query(page, '[data-testid="product-card"][data-asin], [data-deal-id][data-asin]')
    .toArray()
    .filter((el, i, all) => !all.some((other, j) => j !== i && page.$(other).find(el as never).length > 0));
}

const DEAL_PRICE = '.a-price:not(.a-text-price) .a-offscreen';
const LIST_PRICE = '.a-price.a-text-price .a-offscreen';
const BADGE = '[data-component="dui-badge"], [class*="BadgeAndMessage"] [class*="badge"], .a-badge-text';

const rawText = (page: Page, card: AnyNode, selector: string) => page.$(card).find(selector).first().text().replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '') || undefined;

/** A card's prices as displayed replace the formatted ones when they are the same amounts. */
function useCardDisplays(page: Page, card: AnyNode, deal: ProductResultInit, m: Marketplace): void {
  const shown = readPrice(rawText(page, card, DEAL_PRICE), m);
  if (shown && deal.dealPrice && shown.value === deal.dealPrice.value) {
    deal.dealPrice = { ...deal.dealPrice, display: shown.display };
    deal.price = { ...deal.dealPrice };
  }
  const list = readPrice(rawText(page, card, LIST_PRICE), m);
  if (list && deal.dealListPrice && list.value === deal.dealListPrice.value) deal.dealListPrice = { ...deal.dealListPrice, display: list.display };
}

/** A deal from a rendered card alone (no embedded state on the page). */
export function dealFromCard(page: Page, card: AnyNode, m: Marketplace): ProductResultInit | undefined {
  const asin = cleanText(page.$(card).attr('data-asin'))?.toUpperCase();
  if (!asin || !/^[A-Z0-9]{10}$/.test(asin)) return undefined;
  const deal: ProductResultInit = { asin, url: `${m.origin}/dp/${asin}`, sponsored: false, isPrime: readIsPrime(page, card), authors: [] };
  const title = cleanText(page.$(card).find('[class*="ProductCard-module__title"], .a-truncate-full, [data-testid="product-card-title"]').first().text());
  if (title) deal.title = title;
  const image = readImage(page, card);
  if (image) deal.mainImageUrl = image;
  const rating = readCardRating(page, card, m);
  if (rating !== undefined) deal.rating = rating;
  const dealId = cleanText(page.$(card).attr('data-deal-id'));
  if (dealId) deal.dealId = dealId;
  const badge = cleanText(page.$(card).find(BADGE).first().text());
  if (badge) deal.dealBadge = badge;
  const type = cleanText(page.$(card).attr('data-deal-type'));
  if (type) deal.dealType = type;
  deal.dealIsLightningDeal = /LIGHTNING/i.test(type ?? '');
  const dealPrice = readPrice(rawText(page, card, DEAL_PRICE), m);
  if (dealPrice) {
    deal.dealPrice = dealPrice;
    deal.price = { ...dealPrice };
  }
  const listPrice = readPrice(rawText(page, card, LIST_PRICE), m);
  if (listPrice) deal.dealListPrice = listPrice;
  const percent = /(\d{1,3})\s?%/.exec(page.$(card).find('[class*="BadgeAndMessage"], [data-testid="deal-percent-off"]').text())?.[1];
  if (percent !== undefined && Number(percent) <= 100) deal.dealPercentOff = Number(percent);
  const link = page.$(card).find('a[href]').first().attr('href');
  if (link) {
    try {
      const url = new URL(link, m.origin);
      if (url.host === m.host || url.host === m.bareHost) deal.dealUrl = `${m.origin}${url.pathname}`;
    } catch {
      /* a malformed link is left out */
    }
  }
  return deal;
}

/** Pages of `DEALS_PAGE_SIZE`; the total from the state when it says, else this page is taken as the last. */
function pageInfo(page: number, total: number | undefined, shown: number): PageInfoInit {
  const info: PageInfoInit = { currentPage: BigInt(page), hasPrevPage: page > 1 };
  if (total !== undefined && Number.isSafeInteger(total) && total >= 0) {
    const pages = Math.max(page, Math.ceil(total / DEALS_PAGE_SIZE));
    info.totalResults = BigInt(total);
    info.totalPages = BigInt(pages);
    info.hasNextPage = page < pages;
  } else {
    info.totalPages = BigInt(page);
    info.hasNextPage = false;
    if (page === 1) info.totalResults = BigInt(shown);
  }
  return info;
}
