import { numberTokens, parsePrice, type Marketplace } from '../../marketplaces/index.js';

/** A price as the page displays it (docs/contract.md, Price). */
export interface DisplayedPrice {
  symbol?: string;
  value: number;
  currency: string;
  display: string;
}

/** Characters that may make up a currency mark next to the amount ("CDN$", "R$", "EUR", "₹", "zł"). */
const MARK = /[A-Za-z$€£₹¥\uffe5円zł]+\$?/u;

/**
 * Reads the first price of a text exactly as displayed: "CDN$ 16.65", "EUR 10,99", "39,99€",
 * "R$ 29,90", "₹759.00", "AED330.00". The value and currency come from the marketplace module's
 * locale-aware reading; `display` is the page's own text of that price (ordinary white space collapsed, no-break spaces kept) and
 * `symbol` the mark it shows (the marketplace's own sign when it shows none), so "EUR 10,99" stays "EUR 10,99". A range ("$19.60 - $35.64") is no
 * single price and gives undefined, never a guess.
 */
export function readDisplayedPrice(raw: string | undefined, m: Marketplace): DisplayedPrice | undefined {
  // No-break spaces are part of how the marketplace writes a price ("1.226,00\u00a0€"): keep them.
  const text = raw?.replace(/[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g, '').replace(/[ \t\r\n]+/g, ' ').trim();
  if (!text) return undefined;
  if (/\d\s*[-–]\s*[^\d\s]{0,5}\s?\d/.test(text)) return undefined;
  const [token] = numberTokens(text, m);
  if (!token) return undefined;
  const at = text.indexOf(token) >= 0 ? text.indexOf(token) : toAsciiIndex(text, token);
  const before = text.slice(Math.max(0, at - 6), at);
  const after = text.slice(at + token.length, at + token.length + 4);
  const prefix = /([^\s\d]+)(\s?)$/u.exec(before);
  const suffix = /^(\s?)([^\s\d]+)/u.exec(after);
  const prefixMark = prefix && MARK.test(prefix[1]!) ? prefix[1]!.match(/[A-Za-z$€£₹¥\uffe5円zł]+\$?$/u)?.[0] : undefined;
  const suffixMark = !prefixMark && suffix && MARK.test(suffix[2]!) ? suffix[2]!.match(/^[A-Za-z$€£₹¥\uffe5円zł]+/u)?.[0] : undefined;
  const display = prefixMark
    ? `${prefixMark}${prefix![2]}${token}`
    : suffixMark
      ? `${token}${suffix![1]}${suffixMark}`
      : token;
  const parsed = parsePrice(display, m);
  if (!parsed) return undefined;
  // A bare amount ("237,097.00" on IN pages) still has a currency: parsePrice names the
  // marketplace's own sign for it, so every marketplace's price carries a symbol.
  const symbol = prefixMark ?? suffixMark ?? parsed.symbol;
  return { ...(symbol ? { symbol } : {}), value: parsed.value, currency: parsed.currency, display };
}

function toAsciiIndex(text: string, token: string): number {
  // Full-width digits were converted by numberTokens; fall back to the first digit-like character.
  const first = text.search(/[\d\uff10-\uff19]/);
  return first >= 0 ? first : text.length - token.length;
}
