import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PageInfoSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { cleanText, tryJson, type AnyNode } from './common/dom.js';
import { loadPlainPage, query, type Page } from './common/page.js';
import { dealFromPromotion, findNumber, findPromotionLists, percentIn } from './deals-json.js';
import { jsonValueAfterKey } from './results/embedded-json.js';
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
  const states = readStates(page);
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

/**
 * The grid's state blobs: JSON script blocks, and the `prefetchedData` of the inline script that
 * mounts the 2025 grid (`assets.mountWidget('slot-14', {…, "prefetchedData": {…}})`), cut out by
 * bracket matching rather than by running the script.
 */
function readStates(page: Page): unknown[] {
  const states: unknown[] = [];
  for (const el of query(page, 'script').toArray()) {
    const text = page.$(el).text();
    const type = page.$(el).attr('type');
    if (type === 'a-state' || type === 'application/json') {
      const state = tryJson(text.trim());
      if (state !== undefined) states.push(state);
    } else if (text.includes('"rankedPromotions"')) {
      const state = jsonValueAfterKey(text, 'prefetchedData');
      if (state !== undefined) states.push(state);
    }
  }
  return states;
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
/*
 * The badge: the 2025 grid's `dui-badge` is a filled label with the percent ("14% off") beside a
 * message naming the deal ("Oferta") or counting down to its end; older cards had one badge text.
 */
const BADGE_LABEL = '[data-component="dui-badge"] [class*="BadgeLabel"]';
const BADGE_MESSAGE = '[data-component="dui-badge"] [class*="badgeMessage"]';
const BADGE = '[data-component="dui-badge"], [class*="BadgeAndMessage"] [class*="badge"], .a-badge-text';
const PERCENT_OFF = '[class*="BadgeAndMessage"], [data-testid="deal-percent-off"]';
/*
 * The title: the 2025 card's `p#title-<ASIN>` holds it (its full text in `.a-truncate-full`); the
 * title block's other `ProductCard-module__title` element holds the badge, so the class alone is
 * not enough.
 */
const TITLE = ['p[id^="title-"] .a-truncate-full', 'p[id^="title-"]', '[data-testid="product-card-title"]', '.a-truncate-full', '[class*="ProductCard-module__title"]'];

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
  const title = TITLE.map((selector) => cleanText(page.$(card).find(selector).first().text())).find((text) => text !== undefined);
  if (title) deal.title = title;
  const image = readImage(page, card);
  if (image) deal.mainImageUrl = image;
  const rating = readCardRating(page, card, m);
  if (rating !== undefined) deal.rating = rating;
  const dealId = cleanText(page.$(card).attr('data-deal-id'));
  if (dealId) deal.dealId = dealId;
  const badge = cleanText(page.$(card).find(BADGE_MESSAGE).first().text()) ?? cleanText(page.$(card).find(BADGE).first().text());
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
  const percent = percentIn(page.$(card).find(PERCENT_OFF).text()) ?? percentIn(page.$(card).find(BADGE_LABEL).first().text());
  if (percent !== undefined) deal.dealPercentOff = percent;
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
