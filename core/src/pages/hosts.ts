import type { Marketplace } from '../marketplaces/index.js';
import type { PageKind } from './types.js';

/** The host a page kind lives on: the suggestion host for autocomplete, the storefront otherwise. */
export function hostForKind(m: Marketplace, kind: PageKind): string {
  return kind === 'autocomplete' ? m.suggestionHost : m.host;
}

/** True when `host` is one of the marketplace's own hosts (its allow-list; nothing else is fetched). */
export function isAllowedHost(m: Marketplace, host: string): boolean {
  return m.allowedHosts.includes(host.toLowerCase());
}

/** `/dp/X` + {a: '1'} → `/dp/X?a=1` (keys in the order given). */
export function pathWithQuery(path: string, query?: Readonly<Record<string, string>>): string {
  if (!path.startsWith('/')) throw new Error(`upstream path must start with '/': ${path}`);
  const params = new URLSearchParams(query ?? {}).toString();
  return params ? `${path}${path.includes('?') ? '&' : '?'}${params}` : path;
}
