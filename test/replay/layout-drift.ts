/**
 * Layout drift, written by the retail-data project (issue 23): the project's fixture pages
 * transformed the way the marketplace changes its pages in a redesign, so tests can switch a drift
 * on and off and watch the service notice. Each drift is a pure function of a page's HTML; none of
 * them copies anything from a recorded page.
 */

export type LayoutDrift =
  /** The price block's ids and classes renamed (a redesign of the buy box). */
  | 'price-classes-renamed'
  /** The availability block removed, with the add-to-cart button that would betray it. */
  | 'availability-removed'
  /** The price and availability blocks renamed together: the redesign of issue 23's report. */
  | 'buybox-redesign'
  /** The rating block restructured: stars and rating count under new ids (a degraded incident: usual fields). */
  | 'rating-restructured';

export const LAYOUT_DRIFTS: readonly LayoutDrift[] = ['price-classes-renamed', 'availability-removed', 'buybox-redesign', 'rating-restructured'];

/** Renames every `from` to `to` in the page (ids, classes, hooks: plain text in the markup). */
const renameAll = (html: string, renames: readonly (readonly [string, string])[]) =>
  renames.reduce((page, [from, to]) => page.split(from).join(to), html);

export const PRICE_RENAMES = [
  ['corePriceDisplay_desktop_feature_div', 'corePrice_feature_div_v2'],
  ['priceToPay', 'px-amount-main'],
  ['a-price-symbol', 'px-sym'],
  ['a-price-whole', 'px-int'],
  ['a-price-fraction', 'px-frac'],
  ['a-price-decimal', 'px-dec'],
  ['a-offscreen', 'px-sr-only'],
  ['a-price', 'px-price'],
] as const;

export const AVAILABILITY_RENAMES = [
  ['id="availability"', 'id="fulfillment-status-v2"'],
  ['add-to-cart-button', 'buy-cta-primary'],
  ['submit.add-to-cart', 'cta.add'],
  ['Add to Cart', 'Add to basket'],
] as const;

export const RATING_RENAMES = [
  ['acrPopover', 'cm-cr-summary'],
  ['acrCustomerReviewLink', 'cm-cr-link'],
  ['acrCustomerReviewText', 'cm-cr-count'],
  ['a-icon-alt', 'cm-star-label'],
] as const;

const DRIFTS: Record<LayoutDrift, (html: string) => string> = {
  'price-classes-renamed': (html) => renameAll(html, PRICE_RENAMES),
  'availability-removed': (html) =>
    renameAll(html, AVAILABILITY_RENAMES.slice(1)).replace(/<div id="availability"[\s\S]*?<\/div>/, ''),
  'buybox-redesign': (html) => renameAll(html, [...PRICE_RENAMES, ...AVAILABILITY_RENAMES]),
  'rating-restructured': (html) => renameAll(html, RATING_RENAMES),
};

/** The page as it looks under `drift`. */
export function applyDrift(drift: LayoutDrift, html: string): string {
  return DRIFTS[drift](html);
}
