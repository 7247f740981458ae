/**
 * A product page that changes over time, written by the retail-data project (never copied from a
 * recorded page): a kettle on amazon.com whose price, stock and buy-box seller move through
 * TIMELINE_STATES. Only the parts the core reads for a snapshot change (price, availability, seller);
 * title, rating, rank, image, bullets and breadcrumb stay, so each step changes exactly what its state
 * says, and the page carries every field a healthy product page yields (core/src/health).
 */

/** One moment of the product: a price in USD and a seller when it can be bought, nothing when it cannot. */
export type TimelineState =
  | { readonly inStock: true; readonly price: number; readonly sellerId: string; readonly sellerName: string }
  | { readonly inStock: false };

const ACME = { sellerId: 'A1TIMELINEACME', sellerName: 'Acme Direct' } as const;
const BOLT = { sellerId: 'A2TIMELINEBOLT', sellerName: 'Bolt Kitchen Outlet' } as const;

/**
 * The story: price 10 → 8 → out of stock (no price shown) → back in stock at 10 → the buy box moves
 * to another seller. Back at 10 rather than 8 so that "price at or below 9" is met exactly once (a
 * price unknown while out of stock and then below the threshold would meet it again).
 */
export const TIMELINE_STATES: readonly TimelineState[] = [
  { inStock: true, price: 10, ...ACME },
  { inStock: true, price: 8, ...ACME },
  { inStock: false },
  { inStock: true, price: 10, ...ACME },
  { inStock: true, price: 10, ...BOLT },
];

/** The default timeline product of the replay server (`npm run replay` serves it too). */
export const TIMELINE_ASIN = 'B0FXTIME01';

const dollars = (value: number) => `$${value.toFixed(2)}`;

function buyBox(asin: string, state: TimelineState): string {
  if (!state.inStock) {
    return `<div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-price"> Currently unavailable. </span><br><span class="a-size-base">We don't know when or if this item will be back in stock.</span></div>`;
  }
  const [whole, fraction] = state.price.toFixed(2).split('.');
  return [
    `<div id="corePriceDisplay_desktop_feature_div" class="celwidget"><span class="a-price priceToPay" data-a-size="xl"><span class="a-offscreen">${dollars(state.price)}</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">${whole}<span class="a-price-decimal">.</span></span><span class="a-price-fraction">${fraction}</span></span></span></div>`,
    `<div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-success"> In Stock </span></div>`,
    `<div id="merchantInfoFeature_feature_div"><div class="offer-display-feature-text"><span class="a-size-small">Sold by</span> <a id="sellerProfileTriggerId" href="/gp/help/seller/at-a-glance.html/ref=dp_merchant_link?ie=UTF8&amp;seller=${state.sellerId}&amp;asin=${asin}">${state.sellerName}</a></div></div>`,
    `<span class="a-button a-button-primary" id="submit.add-to-cart"><span class="a-button-inner"><input id="add-to-cart-button" name="submit.add-to-cart" title="Add to Shopping Cart" type="submit" value="Add to Cart"></span></span>`,
  ].join('\n');
}

/** The whole page of `asin` in `state`. */
export function timelinePage(asin: string, state: TimelineState): string {
  return `<!doctype html><html lang="en-us"><head><meta charset="utf-8"/>
<!-- Written by the retail-data project as a test fixture whose state changes over time (test/replay/timeline.ts). -->
<title>Amazon.com: Northwind Gooseneck Electric Kettle, 1 Liter, Matte Black : Home &amp; Kitchen</title>
<link rel="canonical" href="https://www.amazon.com/Northwind-Gooseneck-Electric-Kettle/dp/${asin}" />
</head>
<body class="a-m-us"><div id="a-page"><div id="dp" class="kitchen en_US"><div id="dp-container" class="a-container">
<div id="wayfinding-breadcrumbs_feature_div"><ul class="a-unordered-list a-horizontal"><li><a href="/b?node=1055398">Home &amp; Kitchen</a></li><li><a href="/b?node=289811">Electric Kettles</a></li></ul></div>
<div id="leftCol"><div id="imgTagWrapperId"><img id="landingImage" alt="Northwind Gooseneck Electric Kettle" src="https://m.media-amazon.com/images/I/61timelineKettle._AC_SL1500_.jpg"></div></div>
<div id="centerCol">
  <div id="title_feature_div"><h1 id="title"><span id="productTitle"> Northwind Gooseneck Electric Kettle, 1 Liter, Matte Black </span></h1></div>
  <div id="bylineInfo_feature_div"><a id="bylineInfo" href="/stores/Northwind/page/5E6F7A8B">Visit the Northwind Store</a></div>
  <div id="averageCustomerReviews_feature_div"><div id="averageCustomerReviews" data-asin="${asin}">
    <span id="acrPopover" title="4.4 out of 5 stars"><span class="a-size-base a-color-base">4.4</span> <i class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">4.4 out of 5 stars</span></i></span>
    <a id="acrCustomerReviewLink" href="#customerReviews"><span id="acrCustomerReviewText" class="a-size-base">2,048 ratings</span></a>
  </div></div>
  <div id="feature-bullets" class="a-section"><ul class="a-unordered-list a-vertical"><li><span class="a-list-item"> Gooseneck spout for a slow, precise pour </span></li><li><span class="a-list-item"> 1 liter, boils in about four minutes </span></li></ul></div>
</div>
<div id="rightCol"><div id="buybox">
${buyBox(asin, state)}
  <input type="hidden" id="ASIN" name="ASIN" value="${asin}">
</div></div>
<div id="prodDetails" class="a-section">
  <table id="productDetails_detailBullets_sections1" class="a-keyvalue prodDetTable" role="presentation">
    <tr><th class="prodDetSectionEntry"> ASIN </th><td class="prodDetAttrValue"> ${asin} </td></tr>
    <tr><th class="prodDetSectionEntry"> Best Sellers Rank </th><td><span><span>#4,321 in Home &amp; Kitchen (<a href="/gp/bestsellers/home-garden/ref=pd_zg_ts_home-garden">See Top 100 in Home &amp; Kitchen</a>)</span><br><span>#12 in <a href="/gp/bestsellers/home-garden/289811/ref=pd_zg_hrsr_home-garden">Electric Kettles</a></span></span></td></tr>
  </table>
</div>
</div></div></div></body></html>`;
}
