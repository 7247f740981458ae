/**
 * The storefront host of each marketplace, for the one thing the core's answer does not say: which
 * marketplace a product URL names when the create body gives no domain ("its host sets the domain").
 * The core owns the full table (core/src/marketplaces/registry.ts) and the watcher may not import
 * it; the core still validates every URL (GetProduct), so this only reads the domain of a URL the
 * core accepted. Move it to @retail/contract if a third reader appears.
 */
import type { DomainCode } from '../model.js';

const BARE_HOSTS: Readonly<Record<DomainCode, string>> = {
  US: 'amazon.com', UK: 'amazon.co.uk', CA: 'amazon.ca', DE: 'amazon.de', FR: 'amazon.fr', IT: 'amazon.it', ES: 'amazon.es',
  AU: 'amazon.com.au', IN: 'amazon.in', MX: 'amazon.com.mx', BR: 'amazon.com.br', JP: 'amazon.co.jp', PL: 'amazon.pl',
};

const BY_HOST = new Map(Object.entries(BARE_HOSTS).flatMap(([code, host]) => [[host, code as DomainCode], [`www.${host}`, code as DomainCode]]));

/** The marketplace of a storefront URL (with or without www., a trailing dot tolerated), if any. */
export function domainOfUrl(url: string): DomainCode | undefined {
  try {
    return BY_HOST.get(new URL(url.trim()).hostname.toLowerCase().replace(/\.$/, ''));
  } catch {
    return undefined;
  }
}
