import { getAsinFromGtinOperation } from './asin-from-gtin.js';
import { getAuthorOperation } from './author.js';
import { getAutocompleteSuggestionsOperation } from './autocomplete.js';
import { getBestSellerCategoriesOperation } from './bestseller-categories.js';
import { getBestSellersOperation } from './bestsellers.js';
import { getCategoryTaxonomyOperation } from './categories.js';
import { getCategoryOperation } from './category.js';
import { getDealsOperation } from './deals.js';
import { getGtinFromAsinOperation } from './gtin-from-asin.js';
import { getProductOffersOperation } from './offers.js';
import type { ResponseInit, RpcName, UNIMPLEMENTED } from './operation.js';
import { getProductOperation } from './product.js';
import { getProductReviewsOperation } from './reviews.js';
import { getSalesEstimateOperation } from './sales.js';
import { searchProductsOperation } from './search.js';
import { getSellerOperation } from './seller.js';
import { getStockEstimateOperation } from './stock.js';
import type { OperationHandler } from './types.js';
import { getProductVariantsOperation } from './variants.js';

/**
 * Every RPC of RetailService and its operation (normalizer and handler, one module each), keyed by
 * RPC name. Adding an operation is one line here (plus its import); the type check fails until every
 * RPC the proto declares has one, under its own name.
 */
export const RPC_OPERATIONS = {
  GetProduct: getProductOperation,
  GetAsinFromGtin: getAsinFromGtinOperation,
  GetGtinFromAsin: getGtinFromAsinOperation,
  GetProductVariants: getProductVariantsOperation,
  GetProductOffers: getProductOffersOperation,
  GetProductReviews: getProductReviewsOperation,
  GetStockEstimate: getStockEstimateOperation,
  GetSalesEstimate: getSalesEstimateOperation,
  SearchProducts: searchProductsOperation,
  GetAutocompleteSuggestions: getAutocompleteSuggestionsOperation,
  GetDeals: getDealsOperation,
  GetBestSellers: getBestSellersOperation,
  GetBestSellerCategories: getBestSellerCategoriesOperation,
  GetSeller: getSellerOperation,
  GetAuthor: getAuthorOperation,
  GetCategoryTaxonomy: getCategoryTaxonomyOperation,
  GetCategory: getCategoryOperation,
} as const satisfies { readonly [K in RpcName]: { readonly rpc: K } };

/**
 * The validated request of each RPC, by RPC name: what its normalizer returns and its handler gets.
 * Defaults are applied (page 1, domain US, rating ALL, sort FEATURED), identifiers normalized (ASIN
 * upper case, GTIN stripped), and the marketplace resolved (from `domain`, or from a URL's host).
 */
export type ValidatedRequests = { readonly [K in RpcName]: ReturnType<(typeof RPC_OPERATIONS)[K]['normalize']> };

/** The handler of RPC `K`: its validated request in, its response message init out. */
export type HandlerFor<K extends RpcName> = OperationHandler<ValidatedRequests[K], ResponseInit<K>>;

export type HandlerTable = { readonly [K in RpcName]: HandlerFor<K> | typeof UNIMPLEMENTED };

/**
 * The operations' handlers, what the server dispatches to by default (a test server may swap some).
 * An RPC marked UNIMPLEMENTED is still validated first, then answers
 * CoreError(UNIMPLEMENTED, "<RPC> is not implemented yet").
 */
export const HANDLERS = Object.fromEntries(Object.values(RPC_OPERATIONS).map((operation) => [operation.rpc, operation.handle])) as HandlerTable;
