import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PriceSchema } from '@retail/contract';
import type { Marketplace } from '../../marketplaces/types.js';
import { formatPriceDisplay } from '../../marketplaces/price.js';

export type PriceInit = MessageInitShape<typeof PriceSchema>;

/*
 * Locale-aware reading of the numbers on result cards, offers and reviews. The marketplace's own
 * separators come from its PriceFormat (the registry); a number is read by finding which separator
 * is the decimal one, so "1.439,01" on BR, "1,23,456.00" on IN and "￥15,592" on JP all read right.
 */

const NUMBER_RUN = /\d[\d.,'\s\u00a0\u202f]*/;

/**
 * Reads the first number in `text` with the marketplace's decimal separator. A separator followed
 * by exactly three digits is grouping unless it is the marketplace's decimal separator and the
 * number has no other separator kind; JPY (no minor units) treats every separator as grouping.
 */
export function readLocaleNumber(text: string | undefined, m: Marketplace): number | undefined {
  if (!text) return undefined;
  const run = NUMBER_RUN.exec(text)?.[0]?.trim();
  if (!run) return undefined;
  const compact = run.replace(/[\s\u00a0\u202f']+/g, '');
  const lastSep = Math.max(compact.lastIndexOf('.'), compact.lastIndexOf(','));
  if (lastSep < 0) return Number(compact);
  const sepChar = compact[lastSep];
  const tail = compact.slice(lastSep + 1);
  const seps = new Set(compact.replace(/\d/g, ''));
  let isDecimal: boolean;
  if (seps.size > 1) isDecimal = true; // "1.439,01": the last separator is the decimal one
  else if (m.priceFormat.fractionDigits === 0) isDecimal = false;
  else if (tail.length !== 3) isDecimal = compact.indexOf(sepChar!) === lastSep; // "24,9" / "25.18"
  else isDecimal = false; // "1,234" / "1.234": grouping
  if (!isDecimal) return Number(compact.replace(/[.,]/g, ''));
  const whole = compact.slice(0, lastSep).replace(/[.,]/g, '');
  const value = Number(`${whole}.${tail}`);
  return Number.isFinite(value) ? value : undefined;
}

/** A whole count ("1,234 ratings", "(381)", "2.982 avaliações"); abbreviated counts ("84.7K") are not read. */
export function readCount(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const run = /\d[\d.,\s\u00a0\u202f]*/.exec(text)?.[0];
  if (!run) return undefined;
  const after = text.slice(text.indexOf(run) + run.length).trimStart();
  if (/^[KkMm万千](?![a-z])/.test(after) && !/^(?:Mal|mal)\b/.test(after)) return undefined;
  const digits = run.replace(/[^\d]/g, '');
  if (digits === '') return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** A star rating from the marketplace's phrase ("4.5 out of 5 stars", "5つ星のうち3.9"); plain "4,8" as fallback. */
export function readRating(text: string | undefined, m: Marketplace, allowBare = false): number | undefined {
  if (!text) return undefined;
  for (const pattern of m.words.ratingPatterns) {
    const value = pattern.exec(text)?.groups?.['value'];
    if (value) return clampRating(Number(value.replace(',', '.')));
  }
  if (allowBare) {
    const bare = /^\s*(\d(?:[.,]\d)?)\s*$/.exec(text)?.[1];
    if (bare) return clampRating(Number(bare.replace(',', '.')));
  }
  return undefined;
}

function clampRating(value: number): number | undefined {
  return Number.isFinite(value) && value >= 0 && value <= 5 ? value : undefined;
}

/** Formats a value the way the marketplace shows prices (the registry's one formatter). */
export function formatDisplay(value: number, m: Marketplace): string {
  return formatPriceDisplay(value, m);
}

/**
 * A price object from the text a page shows ("$25.18", "24,90 €", "R$ 1.439,01"). Ranges and
 * texts without a number are omitted (CONTRACT.md: never guessed). `display` is the page's own
 * text when it is a single price, else the marketplace's formatting of the value.
 */
export function readPrice(text: string | undefined, m: Marketplace): PriceInit | undefined {
  if (!text) return undefined;
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (/\d\s*[-–]\s*\D{0,4}\d/.test(trimmed)) return undefined; // a range
  const value = readLocaleNumber(trimmed, m);
  if (value === undefined || !Number.isFinite(value)) return undefined;
  return { symbol: m.currencySymbol, value, currency: m.currency, display: formatDisplay(value, m) };
}
