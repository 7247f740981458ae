import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RetailService } from '@retail/contract';
import type { RpcName, ValidatedRequests } from '../validation/index.js';
import type { OperationHandler } from './types.js';
import { getAsinFromGtin } from './asin-from-gtin.js';
import { getAuthor } from './author.js';
import { getAutocompleteSuggestions } from './autocomplete.js';
import { getBestSellerCategories } from './bestseller-categories.js';
import { getCategory } from './category.js';
import { getCategoryTaxonomy } from './categories.js';
import { getDeals } from './deals.js';
import { getBestSellers } from './bestsellers.js';
import { getGtinFromAsin } from './gtin-from-asin.js';
import { getProduct } from './product.js';
import { getProductOffers } from './offers.js';
import { getProductReviews } from './reviews.js';
import { getProductVariants } from './variants.js';
import { getSalesEstimate } from './sales.js';
import { getSeller } from './seller.js';
import { getStockEstimate } from './stock.js';
import { searchProducts } from './search.js';

export type { OperationContext, OperationHandler } from './types.js';

/** The response message init of RPC `K` (RetailService's methods are keyed by lower-camel name). */
export type ResponseInit<K extends RpcName> = MessageInitShape<(typeof RetailService)['method'][Uncapitalize<K>]['output']>;

/** The handler of RPC `K`: its validated request in, its response message init out. */
export type HandlerFor<K extends RpcName> = OperationHandler<ValidatedRequests[K], ResponseInit<K>>;

/** Marks an RPC that exists (validated) but is not built yet: it answers UNIMPLEMENTED. */
export const UNIMPLEMENTED = Symbol('unimplemented');

export type HandlerTable = { readonly [K in RpcName]: HandlerFor<K> | typeof UNIMPLEMENTED };

/**
 * Every RPC of RetailService and its handler, keyed by RPC name. Adding an operation is one line
 * here (plus its import). An RPC marked UNIMPLEMENTED is still validated first, then answers
 * CoreError(UNIMPLEMENTED, "<RPC> is not implemented yet").
 */
export const HANDLERS: HandlerTable = {
  GetProduct: getProduct,
  GetAsinFromGtin: getAsinFromGtin,
  GetGtinFromAsin: getGtinFromAsin,
  GetProductVariants: getProductVariants,
  GetProductOffers: getProductOffers,
  GetProductReviews: getProductReviews,
  GetStockEstimate: getStockEstimate,
  GetSalesEstimate: getSalesEstimate,
  SearchProducts: searchProducts,
  GetAutocompleteSuggestions: getAutocompleteSuggestions,
  GetDeals: getDeals,
  GetBestSellers: getBestSellers,
  GetBestSellerCategories: getBestSellerCategories,
  GetSeller: getSeller,
  GetAuthor: getAuthor,
  GetCategoryTaxonomy: getCategoryTaxonomy,
  GetCategory: getCategory,
};
