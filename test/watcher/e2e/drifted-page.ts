/**
 * Layout drift of the timeline product page (test/replay/timeline-page.ts), written by the project the
 * way a marketplace redesign changes a page: the price block's ids and classes renamed to a new price
 * widget, the availability block renamed and moved out of the buy box, the buy-box seller line and the
 * add-to-cart button rebuilt. Title, rating and rank stay as they were: the product is still listed.
 */
const RENAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/corePriceDisplay_desktop_feature_div/g, 'pw-price-widget'],
  [/a-price priceToPay/g, 'pw-amount pw-amount--to-pay'],
  [/a-offscreen/g, 'pw-sr-only'],
  [/a-price-(symbol|whole|decimal|fraction)/g, 'pw-amount__$1'],
  [/id="availability" class="a-section a-spacing-base"/g, 'class="pw-delivery-status" data-pw="stock"'],
  [/a-color-success|a-color-price/g, 'pw-tone'],
  [/id="merchantInfoFeature_feature_div"/g, 'class="pw-sold-by"'],
  [/id="sellerProfileTriggerId"/g, 'class="pw-seller-link"'],
  [/id="submit\.add-to-cart"|id="add-to-cart-button"|name="submit\.add-to-cart"/g, 'data-pw="cart"'],
];

/** The page as the redesign serves it. */
export function driftedPage(html: string): string {
  return RENAMES.reduce((page, [pattern, replacement]) => page.replace(pattern, replacement), html);
}
