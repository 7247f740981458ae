import type { RetailService } from '@retail/contract';

/*
 * The vocabulary of the recordings (a corpus `index.json` entry's `operation` and `domain`) in the
 * service's terms: which RPC a recording answers, and which marketplaces can be asked for at all.
 * Shared by the corpus scorer, the accuracy report and the demo catalogue.
 */

type MethodName = keyof typeof RetailService.method;

/** The RPC that answers each recorded operation (blocked and error pages are product requests). */
export const RPC_OF_OPERATION: Readonly<Record<string, MethodName>> = {
  product: 'getProduct',
  'product(blocked)': 'getProduct',
  'product(error)': 'getProduct',
  variants: 'getProductVariants',
  offers: 'getProductOffers',
  reviews: 'getProductReviews',
  search: 'searchProducts',
  bestsellers: 'getBestSellers',
  seller: 'getSeller',
  // Kinds the corpus has no real pages for; the project's fixtures may carry goldens for them.
  'asin-from-gtin': 'getAsinFromGtin',
  'gtin-from-asin': 'getGtinFromAsin',
  stock: 'getStockEstimate',
  sales: 'getSalesEstimate',
  autocomplete: 'getAutocompleteSuggestions',
  deals: 'getDeals',
  'bestseller-categories': 'getBestSellerCategories',
  author: 'getAuthor',
  categories: 'getCategoryTaxonomy',
  category: 'getCategory',
};

/**
 * RPCs computed from the product page alone, so a complete product page answers them too: the
 * estimates (from its best-sellers rank and stock line) and its variations. Reviews come from the
 * product page's top reviews only while no marketplace session is configured (REVIEWS_SESSION_COOKIE);
 * with one, they need the review list page (`/product-reviews/ASIN`) as well.
 */
export const PRODUCT_PAGE_RPCS: readonly MethodName[] = ['getStockEstimate', 'getSalesEstimate', 'getProductVariants'];

/** The 13 marketplaces the service serves; other corpus domains (AE) cannot be asked for over the API. */
export const SERVED_DOMAINS: ReadonlySet<string> = new Set(['US', 'UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL']);
