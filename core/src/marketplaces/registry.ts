import { Domain } from '@retail/contract';
import type { DomainCode, LanguageCode, Marketplace, PriceFormat } from './types.js';
import { WORDS } from './words/index.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';

interface MarketplaceRow {
  code: DomainCode;
  domain: Domain;
  bareHost: string;
  marketplaceId: string;
  currency: string;
  currencySymbol: string;
  locale: string;
  language: LanguageCode;
  priceFormat: PriceFormat;
}

/** Dollar-style marketplaces write `$1,226.00`. */
const dollarStyle = (numberLocale: string, symbol: string): PriceFormat => ({
  numberLocale,
  group: ',',
  decimal: '.',
  fractionDigits: 2,
  pattern: `${symbol}{number}`,
});

/** Euro-style marketplaces write `1.226,00 €` (NBSP before the sign). */
const euroDotStyle = (numberLocale: string): PriceFormat => ({
  numberLocale,
  group: '.',
  decimal: ',',
  fractionDigits: 2,
  pattern: `{number}${NBSP}€`,
});

const ROWS: readonly MarketplaceRow[] = [
  { code: 'US', domain: Domain.US, bareHost: 'amazon.com', marketplaceId: 'ATVPDKIKX0DER', currency: 'USD', currencySymbol: '$', locale: 'en-US', language: 'en', priceFormat: dollarStyle('en-US', '$') },
  { code: 'UK', domain: Domain.UK, bareHost: 'amazon.co.uk', marketplaceId: 'A1F83G8C2ARO7P', currency: 'GBP', currencySymbol: '£', locale: 'en-GB', language: 'en', priceFormat: dollarStyle('en-GB', '£') },
  { code: 'CA', domain: Domain.CA, bareHost: 'amazon.ca', marketplaceId: 'A2EUQ1WTGCTBG2', currency: 'CAD', currencySymbol: '$', locale: 'en-CA', language: 'en', priceFormat: dollarStyle('en-CA', '$') },
  { code: 'DE', domain: Domain.DE, bareHost: 'amazon.de', marketplaceId: 'A1PA6795UKMFR9', currency: 'EUR', currencySymbol: '€', locale: 'de-DE', language: 'de', priceFormat: euroDotStyle('de-DE') },
  // FR groups with a narrow no-break space (U+202F) and puts a no-break space before €.
  { code: 'FR', domain: Domain.FR, bareHost: 'amazon.fr', marketplaceId: 'A13V1IB3VIYZZH', currency: 'EUR', currencySymbol: '€', locale: 'fr-FR', language: 'fr', priceFormat: { numberLocale: 'fr-FR', group: NNBSP, decimal: ',', fractionDigits: 2, pattern: `{number}${NBSP}€` } },
  { code: 'IT', domain: Domain.IT, bareHost: 'amazon.it', marketplaceId: 'APJ6JRA9NG5V4', currency: 'EUR', currencySymbol: '€', locale: 'it-IT', language: 'it', priceFormat: euroDotStyle('it-IT') },
  { code: 'ES', domain: Domain.ES, bareHost: 'amazon.es', marketplaceId: 'A1RKKUPIHCS9HS', currency: 'EUR', currencySymbol: '€', locale: 'es-ES', language: 'es', priceFormat: euroDotStyle('es-ES') },
  { code: 'AU', domain: Domain.AU, bareHost: 'amazon.com.au', marketplaceId: 'A39IBJ37TRP1C6', currency: 'AUD', currencySymbol: '$', locale: 'en-AU', language: 'en', priceFormat: dollarStyle('en-AU', '$') },
  // IN groups in lakhs (1,23,456.00); the positions come from the en-IN locale.
  { code: 'IN', domain: Domain.IN, bareHost: 'amazon.in', marketplaceId: 'A21TJRUUN4KGV', currency: 'INR', currencySymbol: '₹', locale: 'en-IN', language: 'en', priceFormat: dollarStyle('en-IN', '₹') },
  { code: 'MX', domain: Domain.MX, bareHost: 'amazon.com.mx', marketplaceId: 'A1AM78C64UM0Y8', currency: 'MXN', currencySymbol: '$', locale: 'es-MX', language: 'es', priceFormat: dollarStyle('es-MX', '$') },
  { code: 'BR', domain: Domain.BR, bareHost: 'amazon.com.br', marketplaceId: 'A2Q3Y263D00KWC', currency: 'BRL', currencySymbol: 'R$', locale: 'pt-BR', language: 'pt', priceFormat: { numberLocale: 'pt-BR', group: '.', decimal: ',', fractionDigits: 2, pattern: `R$${NBSP}{number}` } },
  // JP shows whole yen with the fullwidth yen sign U+FFE5.
  { code: 'JP', domain: Domain.JP, bareHost: 'amazon.co.jp', marketplaceId: 'A1VC38T7YXB528', currency: 'JPY', currencySymbol: '\uffe5', locale: 'ja-JP', language: 'ja', priceFormat: { numberLocale: 'ja-JP', group: ',', decimal: '.', fractionDigits: 0, pattern: '\uffe5{number}' } },
  // PL groups with a no-break space and writes "zł" after a no-break space.
  { code: 'PL', domain: Domain.PL, bareHost: 'amazon.pl', marketplaceId: 'A1C3SOZRARQ6R3', currency: 'PLN', currencySymbol: 'zł', locale: 'pl-PL', language: 'pl', priceFormat: { numberLocale: 'pl-PL', group: NBSP, decimal: ',', fractionDigits: 2, pattern: `{number}${NBSP}zł` } },
];

function toMarketplace(row: MarketplaceRow): Marketplace {
  const host = `www.${row.bareHost}`;
  // Each storefront's search box asks its own completion host (completion.amazon.in on IN,
  // completion.amazon.com.br on BR, ...), with the marketplace id as `mid`.
  const suggestionHost = `completion.${row.bareHost}`;
  return Object.freeze({
    ...row,
    host,
    suggestionHost,
    origin: `https://${host}`,
    allowedHosts: Object.freeze([host, row.bareHost, suggestionHost]),
    words: WORDS[row.language],
  });
}

/** The 13 marketplaces, in the order of the Domain enum. */
export const MARKETPLACES: readonly Marketplace[] = Object.freeze(ROWS.map(toMarketplace));

const byCode = new Map(MARKETPLACES.map((m) => [m.code, m]));
const byDomain = new Map(MARKETPLACES.map((m) => [m.domain, m]));
const byHost = new Map<string, Marketplace>(MARKETPLACES.flatMap((m) => [[m.host, m], [m.bareHost, m]] as const));
const US = byCode.get('US')!;

export function marketplaceByCode(code: DomainCode): Marketplace {
  const found = byCode.get(code);
  if (!found) throw new Error(`unknown marketplace code ${String(code)}`);
  return found;
}

/** Looks up a code that came from outside (a string); undefined when it is not one of the 13. */
export function findMarketplaceByCode(code: string): Marketplace | undefined {
  return byCode.get(code.toUpperCase() as DomainCode);
}

/** The marketplace of a proto Domain value; UNSPECIFIED means US. Undefined for unknown numbers. */
export function marketplaceByDomain(domain: Domain): Marketplace | undefined {
  if (domain === Domain.UNSPECIFIED) return US;
  return byDomain.get(domain);
}

/**
 * The marketplace whose storefront is `hostname` (case-insensitive, with or without `www.`, a
 * trailing dot tolerated). Suggestion hosts are not storefronts and give undefined.
 */
export function marketplaceByHost(hostname: string): Marketplace | undefined {
  let host = hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  return byHost.get(host);
}

/** Every host the upstream client may contact, across all marketplaces. */
export const ALLOWED_UPSTREAM_HOSTS: ReadonlySet<string> = new Set(MARKETPLACES.flatMap((m) => m.allowedHosts));
