import type { Marketplace } from '../marketplaces/index.js';
import type { PageKind } from '../operations/types.js';

/** The host a page kind lives on: the suggestion host for autocomplete, the storefront otherwise. */
export function hostForKind(m: Marketplace, kind: PageKind): string {
  return kind === 'autocomplete' ? m.suggestionHost : m.host;
}

/** True when `host` is one of the marketplace's own hosts (its allow-list; nothing else is fetched). */
export function isAllowedHost(m: Marketplace, host: string): boolean {
  return m.allowedHosts.includes(host.toLowerCase());
}

/**
 * True when `url` is on one of the marketplace's own origins: exactly `https:`, no userinfo, the
 * default port, an allow-listed host. The fetch connects to the URL's origin (port included), so a
 * host check alone would let `https://www.amazon.com:34803/` reach any port of a marketplace host.
 * WHATWG URL parsing has already lower-cased the host and turned an explicit `:443` into no port;
 * a trailing-dot host (`www.amazon.com.`) or an IP literal is not on the allow-list.
 */
export function isMarketplaceOrigin(m: Marketplace, url: URL): boolean {
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.port === '' && isAllowedHost(m, url.hostname);
}

/** `/dp/X` + {a: '1'} → `/dp/X?a=1` (keys in the order given). */
export function pathWithQuery(path: string, query?: Readonly<Record<string, string>>): string {
  if (!path.startsWith('/')) throw new Error(`upstream path must start with '/': ${path}`);
  const params = new URLSearchParams(query ?? {}).toString();
  return params ? `${path}${path.includes('?') ? '&' : '?'}${params}` : path;
}
