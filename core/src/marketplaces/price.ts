import type { Marketplace } from './types.js';
import { interpretNumberToken, numberTokens } from './numbers.js';

/** A price as docs/contract.md's Price record carries it. */
export interface ParsedPrice {
  symbol: string;
  value: number;
  currency: string;
  display: string;
}

const formatters = new Map<string, Intl.NumberFormat>();

function numberFormatter(locale: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${locale}/${fractionDigits}`;
  let nf = formatters.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
      useGrouping: 'always',
    });
    formatters.set(key, nf);
  }
  return nf;
}

/**
 * The price exactly as the marketplace shows it: `$1,226.00`, `1.226,00 €`, `1 226,00 €` (U+202F
 * grouping on FR), `₹1,23,456.00`, `R$ 1.226,00`, `￥1,280`, `1 226,00 zł`. Intl supplies the digits
 * and grouping positions; the separators and symbol placement come from the marketplace table.
 */
export function formatPriceDisplay(value: number, m: Marketplace): string {
  const { numberLocale, group, decimal, fractionDigits, pattern } = m.priceFormat;
  const parts = numberFormatter(numberLocale, fractionDigits).formatToParts(Math.abs(value));
  const number = parts
    .map((part) => {
      if (part.type === 'group') return group;
      if (part.type === 'decimal') return decimal;
      if (part.type === 'minusSign' || part.type === 'plusSign') return '';
      return part.value;
    })
    .join('');
  const sign = value < 0 && number.replace(/\D/g, '').replace(/0/g, '') !== '' ? '-' : '';
  return sign + pattern.replace('{number}', number);
}

/**
 * Currency marks in the order they must be tried (longest first: "R$" before "$"). The currency is an
 * ISO code, or 'dollar' for a bare "$" (the marketplace's own dollar, resolved below).
 */
const CURRENCY_MARKS: ReadonlyArray<readonly [mark: string, currency: string]> = [
  ['R$', 'BRL'],
  ['US$', 'USD'],
  ['CDN$', 'CAD'],
  ['CA$', 'CAD'],
  ['C$', 'CAD'],
  ['AU$', 'AUD'],
  ['A$', 'AUD'],
  ['MX$', 'MXN'],
  ['€', 'EUR'],
  ['EUR', 'EUR'],
  ['£', 'GBP'],
  ['GBP', 'GBP'],
  ['₹', 'INR'],
  ['Rs.', 'INR'],
  ['\uffe5', 'JPY'],
  ['¥', 'JPY'],
  ['円', 'JPY'],
  ['zł', 'PLN'],
  ['PLN', 'PLN'],
  ['$', 'dollar'],
];

function detectCurrency(text: string, m: Marketplace): { mark: string; currency: string } | undefined {
  for (const [mark, currency] of CURRENCY_MARKS) {
    if (!text.includes(mark)) continue;
    // A bare "$" is the marketplace's own dollar where it has one, else US dollars.
    if (currency === 'dollar') return { mark, currency: m.currencySymbol === '$' ? m.currency : 'USD' };
    return { mark, currency };
  }
  return undefined;
}

export interface ParsePriceOptions {
  /**
   * 'shown' (default): `display` is the page's own text of the price and `symbol` the mark it
   * shows ("EUR 10,99" stays "EUR 10,99", symbol "EUR"). 'canonical': both come from the
   * marketplace table (formatPriceDisplay), for callers that assemble a price from parts.
   */
  readonly display?: 'shown' | 'canonical';
}

/** Zero-width and bidi marks some pages put inside prices. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g;

/**
 * Reads one price. Exactly one number must be present: a range ("$10.99 - $15.99") or text
 * without a number ("See price in cart") gives undefined, never a guess. Without a currency mark
 * the marketplace's currency is assumed (parsers often pass the amount alone).
 *
 * Why `display` is the shown text by default, not a re-format: docs/contract.md (Wire JSON) asks
 * for "the marketplace's own `display`", and the real pages of the corpus show older or alternative forms
 * ("EUR 10,99" on DE and FR in 2019, "CDN$ 16.65" on CA, "R$259,00" on BR) that their goldens
 * compare exactly. The text is cleaned only of invisible marks and runs of ordinary white space
 * (no-break spaces are the marketplace's own characters and are kept).
 */
export function parsePrice(text: string, m: Marketplace, options: ParsePriceOptions = {}): ParsedPrice | undefined {
  const tokens = numberTokens(text, m);
  if (tokens.length !== 1) return undefined;
  const value = interpretNumberToken(tokens[0]!, m);
  if (value === undefined) return undefined;
  const detected = detectCurrency(text, m);
  const currency = detected?.currency ?? m.currency;
  if (options.display === 'canonical' && currency === m.currency) {
    return { symbol: m.currencySymbol, value, currency, display: formatPriceDisplay(value, m) };
  }
  const shown = text.replace(INVISIBLE, '').replace(/[ \t\r\n]+/g, ' ').trim();
  return { symbol: detected?.mark ?? (currency === m.currency ? m.currencySymbol : ''), value, currency, display: shown };
}
