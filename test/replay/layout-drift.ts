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
  | 'rating-restructured'
  /** The price block replaced by a new price widget: another element, the amount in data attributes and one text run. */
  | 'new-price-widget'
  /** Search results in a new grid: the result container, its cards and their component type renamed. */
  | 'search-grid-container';

export const LAYOUT_DRIFTS: readonly LayoutDrift[] = ['price-classes-renamed', 'availability-removed', 'buybox-redesign', 'rating-restructured', 'new-price-widget', 'search-grid-container'];

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

/**
 * The price block (up to its first closing div: the project's pages keep no div inside it) as a new
 * widget shows the same price: the amount in data attributes and as one text run, none of the
 * `a-price` parts the old block was built from.
 */
const PRICE_BLOCK = /<div id="corePriceDisplay_desktop_feature_div"[\s\S]*?<\/div>/;
function newPriceWidget(html: string): string {
  return html.replace(PRICE_BLOCK, (block) => {
    const amount = /<span class="a-offscreen">([^<]*)<\/span>/.exec(block)?.[1] ?? '';
    const value = amount.replace(/[^0-9.,]/g, '');
    return `<div class="pw3-price-widget" data-component="price-v3"><span class="pw3-amount" data-amount="${value}" data-currency-symbol="${amount.replace(/[0-9.,\s]/g, '')}">${amount}</span></div>`;
  });
}

/** The search grid of 2027: the main results container and every result card renamed. */
export const SEARCH_GRID_RENAMES = [
  ['s-main-slot s-result-list s-search-results', 'srp-grid srp-grid--v2'],
  ['data-component-type="s-search-result"', 'data-component-type="srp-card"'],
  ['s-result-item', 'srp-grid__card'],
  ['s-result-list', 'srp-grid'],
] as const;

const DRIFTS: Record<LayoutDrift, (html: string) => string> = {
  'price-classes-renamed': (html) => renameAll(html, PRICE_RENAMES),
  'availability-removed': (html) =>
    renameAll(html, AVAILABILITY_RENAMES.slice(1)).replace(/<div id="availability"[\s\S]*?<\/div>/, ''),
  'buybox-redesign': (html) => renameAll(html, [...PRICE_RENAMES, ...AVAILABILITY_RENAMES]),
  'rating-restructured': (html) => renameAll(html, RATING_RENAMES),
  'new-price-widget': newPriceWidget,
  'search-grid-container': (html) => renameAll(html, SEARCH_GRID_RENAMES),
};

/** The page as it looks under `drift`. */
export function applyDrift(drift: LayoutDrift, html: string): string {
  return DRIFTS[drift](html);
}
