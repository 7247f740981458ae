import type { Marketplace } from './types.js';
import { interpretNumberToken, numberTokens } from './numbers.js';

/** A price as CONTRACT.md's Price type carries it. */
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
    } as Intl.NumberFormatOptions);
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

/** Currency marks in the order they must be tried (longest first: "R$" before "$"). */
const CURRENCY_MARKS: ReadonlyArray<readonly [mark: string, currency: string | 'dollar']> = [
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

/**
 * Reads one price. Exactly one number must be present: a range ("$10.99 - $15.99") or text
 * without a number ("See price in cart") gives undefined, never a guess. Without a currency mark
 * the marketplace's currency is assumed (parsers often pass the amount alone).
 *
 * `display` is canonical, not copied: for the marketplace's own currency it is re-formatted by
 * formatPriceDisplay, so the same amount always reads the same whatever markup it came from (split
 * whole/fraction spans, odd spaces). A price in another currency (rare: imported offers) keeps its
 * mark as symbol and its own text, whitespace collapsed, as display.
 */
export function parsePrice(text: string, m: Marketplace): ParsedPrice | undefined {
  const tokens = numberTokens(text, m);
  if (tokens.length !== 1) return undefined;
  const value = interpretNumberToken(tokens[0]!, m);
  if (value === undefined) return undefined;
  const detected = detectCurrency(text, m);
  if (!detected || detected.currency === m.currency) {
    return { symbol: m.currencySymbol, value, currency: m.currency, display: formatPriceDisplay(value, m) };
  }
  return { symbol: detected.mark, value, currency: detected.currency, display: text.trim().replace(/\s+/g, ' ') };
}
