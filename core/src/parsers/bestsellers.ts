import type { MessageInitShape } from '@bufbuild/protobuf';
import type { BestSellersSchema, CategoryRefSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { loadIndexedPage, selectAll, selectFirst, type Page } from './common/page.js';
import { readCardPrice, readCardRating, readImage, readIsPrime, type ProductResultInit } from './results/card.js';
import { asinFromHref, attrOf, cleanText, firstRawText, firstText, isAsin, textOf, tryJson, type AnyNode } from './results/dom.js';
import { readCount, readPrice } from './results/locale.js';
import { parsePageInfo } from './results/page-info.js';

export type BestSellersInit = MessageInitShape<typeof BestSellersSchema>;
type CategoryRefInit = MessageInitShape<typeof CategoryRefSchema>;

export interface BestSellersParseContext {
  readonly marketplace: Marketplace;
  /** The category the request named (e.g. `hi`, `hi/552684`), when known. */
  readonly categoryId?: string;
  readonly page?: number;
}

/*
 * A best-sellers page (`/gp/bestsellers/CATEGORY`, `/zgbs/CATEGORY`). Without scripts it renders
 * the first 30 items as grid cards; the full ranking of the page (50 items) is in the embedded
 * `data-client-recs-list` JSON (`[{id, metadataMap: {"render.zg.rank": "31"}}]`), so the ranking is
 * taken from that JSON and the visible cards add title, price and ratings to the items they show.
 * 2019–2021 pages (`.zg-item-immersion`, no JSON) are read from their cards alone.
 */
export function parseBestSellersPage(html: string, ctx: BestSellersParseContext): BestSellersInit {
  return readBestSellersPage(loadIndexedPage(html), ctx);
}

/** parseBestSellersPage on a loaded page. */
export function readBestSellersPage(page: Page, ctx: BestSellersParseContext): BestSellersInit {
  const m = ctx.marketplace;
  const cards = new Map<string, ProductResultInit>();
  const cardOrder: ProductResultInit[] = [];
  for (const item of findGridItems(page)) {
    const card = parseGridItem(page, item, m);
    if (card && !cards.has(card.asin!)) {
      cards.set(card.asin!, card);
      cardOrder.push(card);
    }
  }
  const ranking = readRecsList(page);
  let results: ProductResultInit[];
  if (ranking.length > 0) {
    results = ranking.map(({ asin, rank }) => {
      const card = cards.get(asin) ?? { asin, url: `${m.origin}/dp/${asin}` };
      return { ...card, bestSellersRank: BigInt(rank) };
    });
  } else {
    results = cardOrder;
  }
  return {
    productResults: { results, pageInfo: parsePageInfo(page, ctx.page ?? 1, results.length) },
    categoryInfo: parseCategoryInfo(page, ctx),
  };
}

/** The ranking from the embedded recommendations JSON, in rank order. */
function readRecsList(page: Page): { asin: string; rank: number }[] {
  const out: { asin: string; rank: number }[] = [];
  const seen = new Set<string>();
  for (const el of selectAll(page, undefined, '[data-client-recs-list]')) {
    const list = tryJson<{ id?: string; metadataMap?: Record<string, string> }[]>(attrOf(el, 'data-client-recs-list'));
    if (!Array.isArray(list)) continue;
    const offset = Number(attrOf(el, 'data-index-offset-start') ?? 0) || 0;
    list.forEach((entry, i) => {
      const asin = entry?.id?.toUpperCase();
      if (!isAsin(asin) || seen.has(asin)) return;
      const rank = Number(entry.metadataMap?.['render.zg.rank']);
      seen.add(asin);
      out.push({ asin, rank: Number.isInteger(rank) && rank > 0 ? rank : offset + i + 1 });
    });
  }
  return out.sort((a, b) => a.rank - b.rank);
}

function findGridItems(page: Page): AnyNode[] {
  const grid = selectAll(page, undefined, '[id="gridItemRoot"]');
  if (grid.length > 0) return grid;
  return selectAll(page, undefined, '.zg-item-immersion, li.zg-item, .zg_itemImmersion');
}

function parseGridItem(page: Page, item: AnyNode, m: Marketplace): ProductResultInit | undefined {
  const first = (selector: string) => selectFirst(page, item, selector);
  const asin =
    [cleanText(attrOf(first('[data-asin]'), 'data-asin')), cleanText(attrOf(first('.p13n-sc-uncoverable-faceout'), 'id'))]
      .map((a) => a?.toUpperCase())
      .find(isAsin) ?? selectAll(page, item, 'a[href]').map((a) => asinFromHref(attrOf(a, 'href'))).find(isAsin);
  if (!asin) return undefined;
  const result: ProductResultInit = { asin, url: `${m.origin}/dp/${asin}`, isPrime: readIsPrime(page, item) };
  const rank = readCount(firstText(page, item, ['.zg-bdg-text', '.zg-badge-text', '.zg_rankNumber']));
  if (rank !== undefined) result.bestSellersRank = BigInt(rank);
  const title =
    firstText(page, item, ['[class*="p13n-sc-css-line-clamp"]', '.p13n-sc-truncate-desktop-type2', '.p13n-sc-truncate', '.p13n-sc-line-clamp-1']) ??
    cleanText(attrOf(first('img'), 'alt'));
  if (title) result.title = title;
  const price = readCardPrice(page, item, m) ?? priceFrom(page, item, m);
  if (price) result.price = price;
  const image = readImage(page, item);
  if (image) result.mainImageUrl = image;
  const rating = readCardRating(page, item, m);
  if (rating !== undefined) result.rating = rating;
  const count = readCount(firstText(page, item, ['.a-icon-row a .a-size-small', '.a-icon-row .a-size-small', 'a.a-size-small']));
  if (count !== undefined) result.ratingsTotal = BigInt(count);
  return result;
}

function priceFrom(page: Page, item: AnyNode, m: Marketplace) {
  const text = firstRawText(page, item, ['[class*="p13n-sc-price"]', '.p13n-sc-price']);
  return text ? readPrice(text, m) : undefined;
}

/** Current, parent and child categories from the navigation tree beside the grid. */
function parseCategoryInfo(page: Page, ctx: BestSellersParseContext) {
  const m = ctx.marketplace;
  const find = (selector: string) => selectAll(page, undefined, selector);
  const firstElementText = (selector: string) => textOf(selectFirst(page, undefined, selector));
  const canonical = attrOf(selectFirst(page, undefined, 'link[rel="canonical"]'), 'href');
  const currentId = ctx.categoryId ?? categoryIdFromHref(canonical);
  const selected = cleanText(firstElementText('[role="tree"] [class*="zg-selected"]')) ?? cleanText(firstElementText('.zg_selected'));
  const heading = find('h1')
    .map((h) => cleanText(textOf(h)))
    .find((t) => t && t !== 'Amazon Best Sellers');
  const current: CategoryRefInit = {};
  if (currentId) {
    current.id = currentId;
    current.url = `${m.origin}/gp/bestsellers/${currentId}`;
  }
  const name = selected ?? heading;
  if (name) current.name = name;
  const upItems = find('[role="tree"] [class*="browse-up"] a, #zg_browseRoot .zg_browseUp a');
  const parentLink = upItems[upItems.length - 1];
  const parent = parentLink ? categoryRef(page, parentLink, m) : undefined;
  const children = find('[role="tree"] [role="group"] [role="treeitem"] a, #zg_browseRoot ul ul li a')
    .map((a) => categoryRef(page, a, m))
    .filter((c): c is CategoryRefInit => c !== undefined);
  const info: MessageInitShape<typeof BestSellersSchema>['categoryInfo'] = { currentCategory: current, childCategories: children };
  if (parent) info.parentCategory = parent;
  return info;
}

function categoryRef(page: Page, link: AnyNode, m: Marketplace): CategoryRefInit | undefined {
  const name = cleanText(textOf(link));
  const id = categoryIdFromHref(attrOf(link, 'href'));
  if (!name) return undefined;
  const ref: CategoryRefInit = { name };
  if (id) {
    ref.id = id;
    ref.url = `${m.origin}/gp/bestsellers/${id}`;
  } else {
    ref.url = `${m.origin}/gp/bestsellers`;
  }
  return ref;
}

/** `hi/552684` from `/Best-Sellers-…/zgbs/hi/552684/ref=…` or `/gp/bestsellers/hi/552684`. */
export function categoryIdFromHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  const m = /\/(?:zgbs|gp\/bestsellers)\/([^?#]*)/.exec(href);
  if (!m) return undefined;
  const parts = m[1]!.split('/').filter((p) => p !== '' && !p.startsWith('ref='));
  return parts.length > 0 ? parts.join('/') : undefined;
}
