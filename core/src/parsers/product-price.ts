import type { Marketplace } from '../marketplaces/index.js';
import { cleanText, tryJson } from './common/dom.js';
import { readDisplayedPrice, type DisplayedPrice } from './common/displayed-price.js';
import { closestOf, textOf } from './common/node-reads.js';
import { selectAll, type Page } from './common/page.js';
import { elementTest } from './common/selector-match.js';

/*
 * Buy-box price sources, most specific first. Current pages: the core price block (its
 * `.a-offscreen` copy holds the whole price as one string). 2018–2020 pages: the priceblock ids.
 * Books and media: the Kindle price, the "Buy new" section, the active accordion row, the selected
 * format swatch. Never the list price, "from" prices, carousels or bundles.
 */
const PRICE_SELECTORS = [
  '#corePriceDisplay_desktop_feature_div .priceToPay .a-offscreen',
  '#corePrice_feature_div .priceToPay .a-offscreen',
  '#corePrice_desktop .priceToPay .a-offscreen',
  '#apex_desktop .priceToPay .a-offscreen',
  '#corePrice_feature_div .a-price:not(.a-text-price) .a-offscreen',
  '#priceblock_dealprice',
  '#priceblock_saleprice',
  '#priceblock_ourprice',
  '#priceblock_pospromoprice',
  '#kindle-price',
  'div.kindle-price .a-color-price',
  '#newBuyBoxPrice',
  '#buyNewSection .offer-price',
  '#mediaAccordion .a-accordion-active .header-price',
  'div.a-accordion-active .header-price',
  '#tmmSwatches .a-button-selected .a-color-price',
  '#price_inside_buybox',
];

interface BuyingOptionPrice {
  displayPrice?: string;
  priceAmount?: number;
  currencySymbol?: string;
  buyingOptionType?: string;
}

/**
 * The price data the page embeds for its buying options (`.twister-plus-buying-options-price-data`):
 * a list, or an object of lists keyed by buy-box group. The NEW option is the buy-box price.
 */
function embeddedPrice(page: Page, m: Marketplace): DisplayedPrice | undefined {
  for (const el of selectAll(page, undefined, 'div.twister-plus-buying-options-price-data')) {
    const data = tryJson<BuyingOptionPrice[] | Record<string, BuyingOptionPrice[]>>(textOf(el));
    if (!data) continue;
    const options = Array.isArray(data) ? data : Object.values(data).flat();
    const option = options.find((o) => o?.buyingOptionType === 'NEW') ?? options[0];
    if (!option || typeof option.priceAmount !== 'number') continue;
    const display = cleanText(option.displayPrice);
    const parsed = display ? readDisplayedPrice(display, m) : undefined;
    return {
      ...(option.currencySymbol || parsed?.symbol ? { symbol: option.currencySymbol || parsed?.symbol } : {}),
      value: option.priceAmount,
      currency: parsed?.currency ?? m.currency,
      display: display ?? parsed?.display ?? String(option.priceAmount),
    };
  }
  return undefined;
}

/**
 * The buy-box price. The visible price text is taken for `display` (it is what the page shows);
 * the embedded buying-option data fills in when no visible price is found.
 */
const isPriceRange = elementTest('.a-price-range');

export function readBuyBoxPrice(page: Page, m: Marketplace): DisplayedPrice | undefined {
  for (const selector of PRICE_SELECTORS) {
    for (const el of selectAll(page, undefined, selector)) {
      // Each end of a price range sits in its own .a-offscreen: a range is no price (never guessed).
      if (closestOf(el, isPriceRange)) return undefined;
      const price = readDisplayedPrice(textOf(el), m);
      if (price) return price;
    }
  }
  return embeddedPrice(page, m);
}
