import { RULE_MESSAGES } from '@retail/contract';
import { invalidArgument } from '../errors.js';
import { type Marketplace, marketplaceByHost } from '../marketplaces/index.js';

/**
 * Checks a client-given marketplace URL and returns its parsed form and marketplace. The service
 * never fetches it; it only reads the marketplace and identifiers out of it. Strict on purpose:
 * HTTPS only, no userinfo, no port but the default, and the authority written in plain ASCII so
 * look-alike hosts (Greek omicron, punycode `xn--`, fullwidth dots) are refused, not normalized.
 */
export function checkMarketplaceUrl(raw: string, field: string): { url: URL; marketplace: Marketplace } {
  const text = raw.trim();
  if (!/^https:\/\//i.test(text)) {
    throw invalidArgument(RULE_MESSAGES.httpsUrl(field), field);
  }
  // Backslashes and controls are read differently by different URL parsers; refuse them outright.
  // eslint-disable-next-line no-control-regex -- matching control characters is this check's purpose
  if (/[\\\s\u0000-\u001f\u007f]/.test(text)) throw invalidArgument(RULE_MESSAGES.urlCharacters(field), field);
  const authority = /^https:\/\/([^/?#\\]*)/i.exec(text)![1]!;
  if (authority.includes('@')) throw invalidArgument(RULE_MESSAGES.urlCredentials(field), field);
  const portless = authority.replace(/:443$/, '');
  if (portless.includes(':')) throw invalidArgument(RULE_MESSAGES.urlPort(field), field);
  if (!/^[A-Za-z0-9.-]+$/.test(portless) || /(^|\.)xn--/i.test(portless)) {
    throw invalidArgument(RULE_MESSAGES.urlHost(field), field);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidArgument(RULE_MESSAGES.urlInvalid(field), field);
  }
  const marketplace = marketplaceByHost(url.hostname);
  if (!marketplace) throw invalidArgument(RULE_MESSAGES.urlHost(field), field);
  return { url, marketplace };
}

/** Paths that carry a product's ASIN, tried in order; the ASIN must be a whole path segment. */
const PRODUCT_PATHS: readonly RegExp[] = [
  /(?:^|\/)dp\/(?:product\/)?([A-Za-z0-9]{10})(?=\/|$)/,
  /(?:^|\/)gp\/product\/([A-Za-z0-9]{10})(?=\/|$)/,
  /(?:^|\/)gp\/aw\/d\/([A-Za-z0-9]{10})(?=\/|$)/,
  /(?:^|\/)exec\/obidos\/(?:ASIN|asin|tg\/detail\/-)\/([A-Za-z0-9]{10})(?=\/|$)/,
];

export interface ProductUrl {
  readonly marketplace: Marketplace;
  /** Upper case. */
  readonly asin: string;
}

/** A product URL: `/dp/ASIN`, `/<slug>/dp/ASIN`, `/gp/product/ASIN`, `/gp/aw/d/ASIN`, `/exec/obidos/ASIN/ASIN`. */
export function parseProductUrl(raw: string, field = 'url'): ProductUrl {
  const { url, marketplace } = checkMarketplaceUrl(raw, field);
  for (const pattern of PRODUCT_PATHS) {
    const asin = pattern.exec(url.pathname)?.[1];
    if (asin) return { marketplace, asin: asin.toUpperCase() };
  }
  throw invalidArgument(RULE_MESSAGES.productUrlPath(field), field);
}

export interface BestSellersUrl {
  readonly marketplace: Marketplace;
  /**
   * The category path after the best-sellers marker, e.g. 'electronics' or 'electronics/541966';
   * undefined for the all-departments page. This is the same form as `category_id`.
   */
  readonly categoryId: string | undefined;
}

const BEST_SELLERS_PATH = /(?:^|\/)(?:gp\/bestsellers|zgbs|bestsellers)(?=\/|$)(.*)$/;

/** A best-sellers URL: /gp/bestsellers/…, /zgbs/…, /<slug>/zgbs/…, /bestsellers/…; `ref=` segments dropped. */
export function parseBestSellersUrl(raw: string, field = 'url'): BestSellersUrl {
  const { url, marketplace } = checkMarketplaceUrl(raw, field);
  const rest = BEST_SELLERS_PATH.exec(url.pathname)?.[1];
  if (rest === undefined) throw invalidArgument(RULE_MESSAGES.bestSellersUrlPath(field), field);
  const segments: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '') continue;
    if (segment.startsWith('ref=')) break;
    if (!/^[A-Za-z0-9_.-]+$/.test(segment)) throw invalidArgument(RULE_MESSAGES.bestSellersCategoryPath(field), field);
    segments.push(segment);
  }
  const categoryId = segments.join('/');
  if (categoryId.length > 120) throw invalidArgument(RULE_MESSAGES.bestSellersCategoryPath(field), field);
  return { marketplace, categoryId: categoryId === '' ? undefined : categoryId };
}
