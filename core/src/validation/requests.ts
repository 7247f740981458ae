import type { Message } from '@bufbuild/protobuf';
import {
  Domain,
  DomainSchema,
  type GetAsinFromGtinRequest,
  type GetAuthorRequest,
  type GetAutocompleteSuggestionsRequest,
  type GetBestSellersRequest,
  type GetCategoryRequest,
  type GetDealsRequest,
  type GetGtinFromAsinRequest,
  type GetProductOffersRequest,
  type GetProductRequest,
  type GetProductReviewsRequest,
  type GetSellerRequest,
  RetailService,
  ReviewRating,
  RULE_MESSAGES,
  type SearchProductsRequest,
  SearchSort,
  wireEnumValues,
} from '@retail/contract';
import { invalidArgument } from '../errors.js';
import { type Marketplace, marketplaceByDomain } from '../marketplaces/index.js';
import { validateAsin } from './asin.js';
import { validateGtin } from './gtin.js';
import { checkDeclaredRules } from './rules.js';
import type { ProductLookupRequest, RpcName, ValidatedRequests } from './types.js';
import { parseBestSellersUrl, parseProductUrl } from './url.js';

function domainMarketplace(domain: Domain): Marketplace {
  const m = marketplaceByDomain(domain);
  if (!m) throw invalidArgument(RULE_MESSAGES.enumValue('domain', wireEnumValues(DomainSchema)), 'domain');
  return m;
}

/**
 * With a URL and no domain the URL's host sets the marketplace; a domain that names another
 * marketplace than the URL's host is a 400 (docs/contract.md, Lookup key).
 */
function agreeingMarketplace(domain: Domain, fromUrl: Marketplace): Marketplace {
  if (domain === Domain.UNSPECIFIED) return fromUrl;
  const named = domainMarketplace(domain);
  if (named !== fromUrl) {
    throw invalidArgument(RULE_MESSAGES.domainMismatch(named.code, fromUrl.code, fromUrl.host), 'domain');
  }
  return named;
}

const page = (value: bigint | undefined): number => (value === undefined ? 1 : Number(value));
const optionalNumber = (value: bigint | undefined): number | undefined => (value === undefined ? undefined : Number(value));

type LookupFields = Pick<GetProductRequest, 'domain' | 'asin' | 'url' | 'gtin'>;

/** Exactly one key is set here: the declared one_of_group "lookup" was checked before. */
function productLookup(m: LookupFields): ProductLookupRequest {
  if (m.url !== undefined) {
    const parsed = parseProductUrl(m.url, 'url');
    return { marketplace: agreeingMarketplace(m.domain, parsed.marketplace), lookup: { kind: 'asin', asin: parsed.asin, source: 'url' } };
  }
  const marketplace = domainMarketplace(m.domain);
  if (m.gtin !== undefined) {
    const { gtin, kind } = validateGtin(m.gtin, 'gtin');
    return { marketplace, lookup: { kind: 'gtin', gtin, gtinKind: kind } };
  }
  return { marketplace, lookup: { kind: 'asin', asin: validateAsin(m.asin ?? '', 'asin'), source: 'asin' } };
}

const sortOrDefault = (sort: SearchSort): SearchSort => (sort === SearchSort.UNSPECIFIED ? SearchSort.FEATURED : sort);

/** Per-RPC normalization after the declared rules passed. */
const NORMALIZERS: { [K in RpcName]: (message: never) => ValidatedRequests[K] } = {
  GetProduct: (m: GetProductRequest) => productLookup(m),
  GetProductVariants: (m: LookupFields) => productLookup(m),
  GetStockEstimate: (m: LookupFields) => productLookup(m),
  GetSalesEstimate: (m: LookupFields) => productLookup(m),
  GetProductOffers: (m: GetProductOffersRequest) => ({ ...productLookup(m), page: page(m.page) }),
  GetProductReviews: (m: GetProductReviewsRequest) => ({
    ...productLookup(m),
    page: page(m.page),
    onlyVerifiedReviews: m.onlyVerifiedReviews ?? false,
    rating: m.rating === ReviewRating.UNSPECIFIED ? ReviewRating.ALL : m.rating,
    search: m.search?.trim() || undefined,
  }),
  GetAsinFromGtin: (m: GetAsinFromGtinRequest) => {
    const { gtin, kind } = validateGtin(m.gtin, 'gtin');
    return { marketplace: domainMarketplace(m.domain), gtin, gtinKind: kind };
  },
  GetGtinFromAsin: (m: GetGtinFromAsinRequest) => ({ marketplace: domainMarketplace(m.domain), asin: validateAsin(m.asin, 'asin') }),
  SearchProducts: (m: SearchProductsRequest) => {
    if (m.minPrice !== undefined && m.maxPrice !== undefined && m.maxPrice < m.minPrice) {
      throw invalidArgument(RULE_MESSAGES.notLessThan('maxPrice', 'minPrice'), 'max_price');
    }
    return {
      marketplace: domainMarketplace(m.domain),
      searchTerm: m.searchTerm.trim(),
      categoryId: m.categoryId,
      page: page(m.page),
      limit: optionalNumber(m.limit),
      minPrice: m.minPrice,
      maxPrice: m.maxPrice,
      conditions: [...new Set(m.conditions)],
      sort: sortOrDefault(m.sort),
    };
  },
  GetAutocompleteSuggestions: (m: GetAutocompleteSuggestionsRequest) => ({
    marketplace: domainMarketplace(m.domain),
    searchTerm: m.searchTerm.trim(),
    category: m.category,
  }),
  GetDeals: (m: GetDealsRequest) => ({
    marketplace: domainMarketplace(m.domain),
    page: page(m.page),
    limit: optionalNumber(m.limit),
    categoryIds: [...new Set(m.categoryIds)],
  }),
  GetBestSellers: (m: GetBestSellersRequest) => {
    const common = { page: page(m.page), limit: optionalNumber(m.limit) };
    if (m.url !== undefined) {
      const parsed = parseBestSellersUrl(m.url, 'url');
      return { ...common, marketplace: agreeingMarketplace(m.domain, parsed.marketplace), categoryId: parsed.categoryId, source: 'url' as const };
    }
    return { ...common, marketplace: domainMarketplace(m.domain), categoryId: m.categoryId, source: 'categoryId' as const };
  },
  GetBestSellerCategories: (m: { domain: Domain }) => ({ marketplace: domainMarketplace(m.domain) }),
  GetCategoryTaxonomy: (m: { domain: Domain }) => ({ marketplace: domainMarketplace(m.domain) }),
  GetSeller: (m: GetSellerRequest) => ({ marketplace: domainMarketplace(m.domain), sellerId: m.sellerId, page: page(m.page) }),
  GetAuthor: (m: GetAuthorRequest) => ({ marketplace: domainMarketplace(m.domain), authorId: validateAsin(m.asin, 'asin'), page: page(m.page) }),
  GetCategory: (m: GetCategoryRequest) => ({
    marketplace: domainMarketplace(m.domain),
    categoryId: m.categoryId,
    page: page(m.page),
    sort: sortOrDefault(m.sort),
  }),
};

const METHODS = new Map(RetailService.methods.map((m) => [m.name, m]));

export const RPC_NAMES = Object.keys(NORMALIZERS) as RpcName[];

export function isRpcName(name: string): name is RpcName {
  return Object.hasOwn(NORMALIZERS, name);
}

/**
 * Validates one request message of RPC `rpc`: the rules declared in proto first, then the semantic
 * checks and normalization. Throws CoreError(INVALID_ARGUMENT) naming the field.
 */
export function validateRequest<K extends RpcName>(rpc: K, message: Message): ValidatedRequests[K] {
  const method = METHODS.get(rpc);
  if (!method) throw new Error(`unknown RPC ${rpc}`);
  if (message.$typeName !== method.input.typeName) throw new Error(`${rpc} expects ${method.input.typeName}, got ${message.$typeName}`);
  checkDeclaredRules(method.input, message);
  return (NORMALIZERS[rpc] as (m: Message) => ValidatedRequests[K])(message);
}
