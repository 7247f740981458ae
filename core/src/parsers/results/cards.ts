import { selectAll, type Page } from '../common/page.js';
import type { AnyNode } from './dom.js';
import { attrOf, isAsin } from './dom.js';

/*
 * The main result list of a search-style page (search, seller storefront, category, author), in
 * page order. Widgets outside it (carousels, "related searches", sponsored-brand banners) carry
 * `data-asin` too, so only the result containers each layout uses are taken.
 */
const CARD_SELECTORS = [
  // 2020+: every main-results card declares itself.
  '[data-component-type="s-search-result"]',
  // 2018–19: list items of the results list.
  'li.s-result-item[data-asin]',
  '.s-result-list .s-result-item[data-asin]',
];

export function findResultCards(page: Page): AnyNode[] {
  for (const selector of CARD_SELECTORS) {
    const cards = selectAll(page, undefined, selector).filter((el) => isAsin((attrOf(el, 'data-asin') ?? '').trim().toUpperCase()));
    // Drop cards nested inside another card (some layouts wrap a card in a card-like container).
    const set = new Set<AnyNode>(cards);
    const top = cards.filter((el) => {
      for (let node = el.parent as AnyNode | null; node; node = node.parent as AnyNode | null) if (set.has(node)) return false;
      return true;
    });
    if (top.length > 0) return top;
  }
  return [];
}
