import type { MessageInitShape } from '@bufbuild/protobuf';
import type { BestSellerCategorySchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { categoryIdFromHref } from './bestsellers.js';
import { cleanText } from './common/dom.js';
import { loadPlainPage, query, type Page } from './common/page.js';

export type BestSellerCategoryInit = MessageInitShape<typeof BestSellerCategorySchema>;

/*
 * The best-sellers root page (`/gp/bestsellers`) lists the departments that have a ranking in its
 * navigation tree: 2021+ `div[role="tree"]` with `[role="treeitem"]` links
 * (`/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_nav_electronics_0`), 2019-20
 * `#zg_browseRoot ul li a`. The category id is the path after `zgbs/` (or `gp/bestsellers/`), the
 * only stable part of the link; the name is the link's text. The "Any Department" entry (no id)
 * and repeated links are left out.
 */
const TREE_LINK_SELECTORS = ['[role="tree"] [role="treeitem"] a[href]', '#zg_browseRoot ul li a[href]', '#zg-left-col a[href*="/zgbs/"]'];

export function parseBestSellerCategories(html: string, m: Marketplace): BestSellerCategoryInit[] {
  return readBestSellerCategories(loadPlainPage(html), m);
}

/** parseBestSellerCategories on a loaded page. */
export function readBestSellerCategories(page: Page, m: Marketplace): BestSellerCategoryInit[] {
  for (const selector of TREE_LINK_SELECTORS) {
    const seen = new Set<string>();
    const categories: BestSellerCategoryInit[] = [];
    for (const link of query(page, selector).toArray()) {
      const id = categoryIdFromHref(page.$(link).attr('href'));
      const name = cleanText(page.$(link).text());
      if (!id || !name || seen.has(id)) continue;
      seen.add(id);
      categories.push({ id, name, url: `${m.origin}/gp/bestsellers/${id}` });
    }
    if (categories.length > 0) return categories;
  }
  return [];
}
