import { Domain, DomainSchema, type GetProductRequest, RULE_MESSAGES, SearchSort, wireEnumValues } from '@retail/contract';
import { invalidArgument } from '../errors.js';
import { type Marketplace, marketplaceByDomain } from '../marketplaces/index.js';
import { validateAsin } from './asin.js';
import { type GtinKind, validateGtin } from './gtin.js';
import { parseProductUrl } from './url.js';

/*
 * The request fields several operations share, normalized once: the domain to its marketplace, the
 * product lookup key, page and limit, the sort. Each operation's normalizer (core/src/operations/<op>.ts)
 * composes them after the declared rules passed (validation/rules.ts), so the defaults read the same
 * everywhere: page 1, domain US, sort FEATURED.
 */

/** What every validated request carries: the marketplace, resolved from `domain` or a URL's host. */
export interface MarketplaceRequest {
  readonly marketplace: Marketplace;
}

/** The product a per-product call is about. A product URL becomes an ASIN lookup. */
export type ProductLookup =
  | { readonly kind: 'asin'; readonly asin: string; /** 'url' when the ASIN came from a product URL. */ readonly source: 'asin' | 'url' }
  | { readonly kind: 'gtin'; readonly gtin: string; readonly gtinKind: GtinKind };

export interface ProductLookupRequest extends MarketplaceRequest {
  readonly lookup: ProductLookup;
}

export function domainMarketplace(domain: Domain): Marketplace {
  const m = marketplaceByDomain(domain);
  if (!m) throw invalidArgument(RULE_MESSAGES.enumValue('domain', wireEnumValues(DomainSchema)), 'domain');
  return m;
}

/** The request of an operation that needs nothing but its marketplace. */
export const marketplaceOnly = (m: { domain: Domain }): MarketplaceRequest => ({ marketplace: domainMarketplace(m.domain) });

/**
 * With a URL and no domain the URL's host sets the marketplace; a domain that names another
 * marketplace than the URL's host is a 400 (docs/contract.md, lookup key).
 */
export function agreeingMarketplace(domain: Domain, fromUrl: Marketplace): Marketplace {
  if (domain === Domain.UNSPECIFIED) return fromUrl;
  const named = domainMarketplace(domain);
  if (named !== fromUrl) {
    throw invalidArgument(RULE_MESSAGES.domainMismatch(named.code, fromUrl.code, fromUrl.host), 'domain');
  }
  return named;
}

export const pageOrFirst = (value: bigint | undefined): number => (value === undefined ? 1 : Number(value));
export const optionalNumber = (value: bigint | undefined): number | undefined => (value === undefined ? undefined : Number(value));
export const sortOrDefault = (sort: SearchSort): SearchSort => (sort === SearchSort.UNSPECIFIED ? SearchSort.FEATURED : sort);

/** The lookup-key fields every per-product request declares. */
export type LookupFields = Pick<GetProductRequest, 'domain' | 'asin' | 'url' | 'gtin'>;

/** Exactly one key is set here: the declared one_of_group "lookup" was checked before. */
export function productLookup(m: LookupFields): ProductLookupRequest {
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
