import type { Marketplace } from '../marketplaces/index.js';
import { cleanText, visibleText } from './common/dom.js';
import { textOf } from './common/node-reads.js';
import { firstVisibleText, query, selectAll, selectFirst, type Page } from './common/page.js';
import { detailValue, type DetailRow } from './product-details.js';

/*
 * Readers of the product page's brand byline and buy-box facts (stock, Prime badge, offer
 * condition). Marketplace words come from the marketplaces module.
 */

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

export function readBrand(page: Page, rows: readonly DetailRow[], m: Marketplace): string | undefined {
  const byline = selectFirst(page, undefined, '#bylineInfo');
  // Books and media put contributors in the byline ("by X (Author)", "Y (Artist) Format: CD"): no brand.
  const isContributors = byline !== undefined && selectAll(page, byline, '.author, .contribution').length > 0;
  const text = visibleText(byline);
  if (text && !isContributors && !/[()]|Format\s*:/.test(text)) {
    for (const pattern of BYLINE_BRAND) {
      const match = pattern.exec(text);
      if (match?.[1]) return cleanText(match[1]);
    }
    if (text.length <= 60) return text;
  }
  return detailValue(rows, m.words.detailLabels.brand) ?? cleanText(textOf(selectFirst(page, undefined, '#brand')));
}

function matchesAny(text: string, phrases: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return phrases.some((p) => lower.includes(p.toLowerCase()));
}

/** In stock from the availability text; an add-to-cart button counts when there is no text. */
export function readInStock(page: Page, m: Marketplace, hasPrice: boolean): boolean | undefined {
  const text = firstVisibleText(page, ['#availability', '#outOfStock', '#availability_feature_div']);
  if (text) {
    if (matchesAny(text, m.words.availability.outOfStock)) return false;
    if (matchesAny(text, m.words.availability.inStock)) return true;
    if (m.words.availability.onlyLeftPatterns.some((p) => p.test(text))) return true;
  }
  if (query(page, '#outOfStock').length > 0) return false;
  if ((query(page, '#add-to-cart-button').length > 0 || query(page, '#buy-now-button').length > 0) && hasPrice) return true;
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

export function readIsPrime(page: Page): boolean {
  return PRIME_BADGES.some((selector) => query(page, selector).length > 0);
}

export function isUsedOffer(page: Page): boolean {
  return query(page, '#usedBuySection.a-accordion-active, #usedAccordionRow.a-accordion-active').length > 0;
}
