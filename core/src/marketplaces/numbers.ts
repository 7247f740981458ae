import type { Marketplace } from './types.js';
import { WORDS } from './words/index.js';

/** Space characters marketplaces use as digit grouping: space, NBSP, narrow NBSP, thin space. */
const SPACE_GROUPS = ' \u00a0\u202f\u2009';
const FULLWIDTH_DIGIT_ZERO = 0xff10;

/** Fullwidth digits and separators (seen on JP pages) read as ASCII. */
export function toAsciiDigits(text: string): string {
  return text.replace(/[\uff10-\uff19\uff0c\uff0e]/g, (ch) => {
    const code = ch.charCodeAt(0);
    if (code === 0xff0c) return ',';
    if (code === 0xff0e) return '.';
    return String(code - FULLWIDTH_DIGIT_ZERO);
  });
}

function escapeForClass(chars: string): string {
  return chars.replace(/[\\\]^-]/g, '\\$&');
}

function isSpaceGrouped(m: Marketplace): boolean {
  return SPACE_GROUPS.includes(m.priceFormat.group);
}

/**
 * Every number-looking run of the text, as the marketplace writes numbers: digits joined by single
 * separators ('.', ',', apostrophe, and on space-grouped marketplaces the space kinds), so
 * "2 345 évaluations" on FR is one token but "4.5 out of 5" on US is two.
 */
export function numberTokens(text: string, m: Marketplace): string[] {
  const separators = '.,\'' + (isSpaceGrouped(m) ? SPACE_GROUPS : '');
  const pattern = new RegExp(`\\d(?:[${escapeForClass(separators)}]?\\d)*`, 'g');
  return toAsciiDigits(text).match(pattern) ?? [];
}

/**
 * Reads one token. The marketplace's own format wins ("1.226,00" on DE is 1226); a token that does
 * not fit it (an English-formatted "1,226.00" on a DE page) falls back to the usual reading: with
 * both '.' and ',' the last one is the decimal separator; a lone separator followed by exactly
 * three digits is grouping; spaces and apostrophes are always grouping.
 */
export function interpretNumberToken(token: string, m: Marketplace): number | undefined {
  const { group, decimal, numberLocale } = m.priceFormat;
  const groupClass = isSpaceGrouped(m) ? SPACE_GROUPS : group;
  // Indian grouping has groups of two digits above the thousands.
  const groupDigits = numberLocale === 'en-IN' ? '\\d{2,3}' : '\\d{3}';
  const own = new RegExp(`^\\d+(?:[${escapeForClass(groupClass)}]${groupDigits})*(?:${escapeForClass(decimal)}\\d+)?$`);
  if (own.test(token)) {
    return toFiniteNumber(token.split('').filter((c) => !groupClass.includes(c)).join('').replace(decimal, '.'));
  }
  const compact = token.replace(/[\s\u00a0\u202f\u2009']/g, '');
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimalChar = lastDot > lastComma ? '.' : ',';
    const groupChar = decimalChar === '.' ? ',' : '.';
    return toFiniteNumber(compact.split(groupChar).join('').replace(decimalChar, '.'));
  }
  const sep = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : undefined;
  if (!sep) return toFiniteNumber(compact);
  const pieces = compact.split(sep);
  const groupingLike = pieces.length > 2 || pieces[pieces.length - 1]!.length === 3;
  return toFiniteNumber(groupingLike ? pieces.join('') : pieces.join('.'));
}

function toFiniteNumber(text: string): number | undefined {
  if (!/^\d+(?:\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** The first number of the text read with the marketplace's separators; undefined when none. */
export function parseLocaleNumber(text: string, m: Marketplace): number | undefined {
  const [first] = numberTokens(text, m);
  return first === undefined ? undefined : interpretNumberToken(first, m);
}

/**
 * A star rating (0 to 5) from "4.5 out of 5 stars", "4,5 von 5 Sternen", "5つ星のうち4.1", ... The
 * marketplace's language is tried first, then the others (a storefront can be shown in another
 * language), then a bare number. With a value of at most 5, '.' and ',' can only be decimal.
 */
export function parseRating(text: string, m: Marketplace): number | undefined {
  const normalized = toAsciiDigits(text).replace(/[\u00a0\u202f\u2009]/g, ' ');
  const languages = [m.words, ...Object.values(WORDS).filter((w) => w !== m.words)];
  for (const words of languages) {
    for (const pattern of words.ratingPatterns) {
      const raw = pattern.exec(normalized)?.groups?.value;
      if (raw !== undefined) return ratingValue(raw);
    }
  }
  const bare = /^\s*(\d(?:[.,]\d+)?)\s*$/.exec(normalized)?.[1];
  return bare === undefined ? undefined : ratingValue(bare);
}

function ratingValue(raw: string): number | undefined {
  const n = Number(raw.replace(',', '.'));
  return Number.isFinite(n) && n >= 0 && n <= 5 ? n : undefined;
}

/** Abbreviated counts on result pages: "2.5K", "1,2 k", "3M". */
const ABBREVIATION = /^\s*(?<n>\d+(?:[.,]\d+)?)\s*(?<unit>[kKmM])\b/;

/**
 * A count (ratings, reviews, results): "1,234 ratings" → 1234, "1.234 Sternebewertungen" → 1234,
 * "2 345 évaluations" → 2345, "1,234個の評価" → 1234, "(2.5K)" → 2500. When one of the
 * marketplace's ratings-count words is present, the number right before it is taken; otherwise the
 * first number. Counts are whole, so every separator is grouping.
 */
export function parseCount(text: string, m: Marketplace): number | undefined {
  const ascii = toAsciiDigits(text);
  const lower = ascii.toLowerCase();
  let scope = ascii;
  for (const word of m.words.ratingsCountWords) {
    const at = lower.indexOf(word.toLowerCase());
    if (at > 0 && /\d/.test(ascii.slice(0, at))) {
      scope = ascii.slice(0, at);
      break;
    }
  }
  const tokens = numberTokens(scope, m);
  const token = scope === ascii ? tokens[0] : tokens[tokens.length - 1];
  if (token === undefined) return undefined;
  const after = scope.slice(scope.lastIndexOf(token) + token.length);
  const abbreviated = ABBREVIATION.exec(token + after);
  if (abbreviated?.groups) {
    const base = Number(abbreviated.groups.n!.replace(',', '.'));
    const factor = abbreviated.groups.unit!.toLowerCase() === 'k' ? 1_000 : 1_000_000;
    return Math.round(base * factor);
  }
  const digits = token.replace(/\D/g, '');
  return digits === '' ? undefined : Number(digits);
}
