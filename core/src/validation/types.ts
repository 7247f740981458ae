import type { Condition, ReviewRating, SearchSort } from '@retail/contract';
import type { Marketplace } from '../marketplaces/index.js';
import type { GtinKind } from './gtin.js';

/**
 * Requests after validation: what handlers receive. Defaults are applied (page 1, domain US, rating
 * ALL, sort FEATURED), identifiers normalized (ASIN upper case, GTIN stripped), and the marketplace
 * resolved (from `domain`, or from the URL's host when only a URL names it).
 */

/** The product a per-product call is about. A product URL becomes an ASIN lookup. */
export type ProductLookup =
  | { readonly kind: 'asin'; readonly asin: string; /** 'url' when the ASIN came from a product URL. */ readonly source: 'asin' | 'url' }
  | { readonly kind: 'gtin'; readonly gtin: string; readonly gtinKind: GtinKind };

interface Base {
  readonly marketplace: Marketplace;
}

export interface ProductLookupRequest extends Base {
  readonly lookup: ProductLookup;
}

export interface ProductOffersRequest extends ProductLookupRequest {
  readonly page: number;
}

export interface ProductReviewsRequest extends ProductLookupRequest {
  readonly page: number;
  readonly onlyVerifiedReviews: boolean;
  /** Never UNSPECIFIED (defaults to ALL). */
  readonly rating: ReviewRating;
  readonly search: string | undefined;
}

export interface AsinFromGtinRequest extends Base {
  readonly gtin: string;
  readonly gtinKind: GtinKind;
}

export interface GtinFromAsinRequest extends Base {
  readonly asin: string;
}

export interface SearchRequest extends Base {
  /** Trimmed, non-empty. */
  readonly searchTerm: string;
  readonly categoryId: string | undefined;
  readonly page: number;
  readonly limit: number | undefined;
  readonly minPrice: number | undefined;
  readonly maxPrice: number | undefined;
  /** Distinct, never UNSPECIFIED; empty means any condition. */
  readonly conditions: readonly Condition[];
  /** Never UNSPECIFIED (defaults to FEATURED). */
  readonly sort: SearchSort;
}

export interface AutocompleteRequest extends Base {
  readonly searchTerm: string;
  readonly category: string | undefined;
}

export interface DealsRequest extends Base {
  readonly page: number;
  readonly limit: number | undefined;
  readonly categoryIds: readonly string[];
}

export interface BestSellersRequest extends Base {
  /** 'electronics' or 'electronics/541966'; undefined = all departments (a URL of the root page). */
  readonly categoryId: string | undefined;
  readonly source: 'categoryId' | 'url';
  readonly page: number;
  readonly limit: number | undefined;
}

export type MarketplaceOnlyRequest = Base;

export interface SellerRequest extends Base {
  readonly sellerId: string;
  readonly page: number;
}

export interface AuthorRequest extends Base {
  /** The author's identifier, upper case. */
  readonly authorId: string;
  readonly page: number;
}

export interface CategoryRequest extends Base {
  readonly categoryId: string;
  readonly page: number;
  readonly sort: SearchSort;
}

/** The validated request of each RPC, by RPC name. */
export interface ValidatedRequests {
  GetProduct: ProductLookupRequest;
  GetAsinFromGtin: AsinFromGtinRequest;
  GetGtinFromAsin: GtinFromAsinRequest;
  GetProductVariants: ProductLookupRequest;
  GetProductOffers: ProductOffersRequest;
  GetProductReviews: ProductReviewsRequest;
  GetStockEstimate: ProductLookupRequest;
  GetSalesEstimate: ProductLookupRequest;
  SearchProducts: SearchRequest;
  GetAutocompleteSuggestions: AutocompleteRequest;
  GetDeals: DealsRequest;
  GetBestSellers: BestSellersRequest;
  GetBestSellerCategories: MarketplaceOnlyRequest;
  GetSeller: SellerRequest;
  GetAuthor: AuthorRequest;
  GetCategoryTaxonomy: MarketplaceOnlyRequest;
  GetCategory: CategoryRequest;
}

export type RpcName = keyof ValidatedRequests;
