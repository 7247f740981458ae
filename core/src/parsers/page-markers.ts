/*
 * What a page says it is, from its source text: the checks that tell "this page has nothing of the
 * kind" (an answer) apart from "this is not the page the operation asked for" (UPSTREAM_ERROR). They
 * run where the page is parsed (a worker thread), beside the parser, so the parsed entry that is
 * cached carries the verdict and the HTML is never needed again.
 */

/** A product detail page at all (and not, say, a search or error page served at /dp/). */
export function looksLikeProductPage(html: string): boolean {
  return /id=["']productTitle["']|id=["']dp-container["']|id=["']ASIN["']|dimensionValuesDisplayData|id=["']dp["']/.test(html);
}

/** A search page that says it has no results (rather than one whose cards could not be read). */
export function isEmptySearchPage(html: string): boolean {
  if (/s-no-results|noResultsTitle|s-no-outline-no-results/.test(html)) return true;
  return /s-result-list|s-main-slot/.test(html) && !/data-asin="[A-Z0-9]{10}"/.test(html);
}

/** The all-offers display (2020+) or the older offer listing, with or without offers. */
export function looksLikeOffersPage(html: string): boolean {
  return /aod-container|olpOfferList|aod-no-offer|olpProduct/.test(html);
}

/** The deals app: its embedded state or its grid, even when it holds no deal. */
export function looksLikeDealsPage(html: string): boolean {
  return /rankedPromotions|data-testid="(?:grid-deals-container|product-card)"|id="DealsGrid/.test(html);
}

/** A product-reviews page: a review list, or the section that says there are none. */
export function looksLikeReviewsPage(html: string): boolean {
  return /cm_cr-review_list|data-hook="review"|no-reviews-section/.test(html);
}
