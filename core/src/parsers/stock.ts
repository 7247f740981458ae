import type { Marketplace } from '../marketplaces/types.js';
import { loadIndexedPage, query, type Page } from './common/page.js';
import { cleanText, firstText } from './results/dom.js';

/** What a product page says about stock: the inputs of the stock model (estimators/stock.ts). */
export interface StockSignals {
  /** The availability line as shown ("Only 3 left in stock - order soon.", "Nur noch 2 auf Lager"). */
  readonly availabilityMessage: string | undefined;
  /** Largest value of the quantity selector (the marketplace caps it at the stock or a purchase limit). */
  readonly quantityMax: number | undefined;
  /** The buy box's offer listing id. */
  readonly offerId: string | undefined;
  /** An add-to-cart or buy-now control is present. */
  readonly buyable: boolean;
}

/*
 * Reads the buy box of a product page: `#availability` (2016–2026 layouts), the `#quantity`
 * selector (or `data-a-max`/`max` of a quantity input), the offer listing id input. Words are
 * not interpreted here; the estimator reads them with the marketplace's locale table.
 */
export function parseStockSignals(html: string, _m: Marketplace): StockSignals {
  return readStockSignals(loadIndexedPage(html));
}

/** parseStockSignals on a loaded page. */
export function readStockSignals(page: Page): StockSignals {
  const availability = query(page, '#availability').first().clone();
  availability.find('script, style, .a-declarative .a-popover-preload').remove();
  const availabilityMessage =
    cleanText(availability.find('.primary-availability-message').first().text()) ??
    cleanText(availability.text()) ??
    firstText(page, undefined, ['#outOfStock .a-color-price', '#outOfStock', '#availability_feature_div .a-color-price']);
  const options = query(page, 'select#quantity option, select[name="quantity"] option')
    .toArray()
    .map((o) => Number(cleanText(page.$(o).attr('value'))))
    .filter((n) => Number.isInteger(n) && n > 0);
  const inputMax = Number(cleanText(query(page, 'input[name="quantity"]').first().attr('max')) ?? cleanText(query(page, '[data-a-max]').first().attr('data-a-max')));
  const quantityMax = options.length > 0 ? Math.max(...options) : Number.isInteger(inputMax) && inputMax > 0 ? inputMax : undefined;
  const offerId =
    cleanText(query(page, 'input#offerListingID').first().attr('value')) ??
    cleanText(query(page, 'input[name="offerListingID"]').first().attr('value')) ??
    cleanText(query(page, 'input[name="items[0.base][offerListingId]"]').first().attr('value'));
  const buyable = query(page, '#add-to-cart-button, #buy-now-button, input[name="submit.add-to-cart"]').length > 0;
  return { availabilityMessage, quantityMax, offerId, buyable };
}
