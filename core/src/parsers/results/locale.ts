import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PriceSchema } from '@retail/contract';
import type { Marketplace } from '../../marketplaces/types.js';
import { formatPriceDisplay, parsePrice } from '../../marketplaces/price.js';

export type PriceInit = MessageInitShape<typeof PriceSchema>;

/*
 * Locale-aware reading of the numbers on result cards, offers and reviews. Prices go through the
 * marketplace registry's one price reader (`parsePrice`: the marketplace's own separators, JPY
 * without minor units, lakh grouping); counts and ratings are read here with the stricter rules
 * result cards need (an abbreviated "84.7K" is not a count).
 */

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
 * A price object from the text a page shows ("$25.18", "24,90 €", "R$ 1.439,01"): `display` is the
 * price as shown (the registry's rule, which the goldens compare). Ranges and texts with more or
 * less than one number are omitted (docs/contract.md, Wire JSON: never guessed).
 */
export function readPrice(text: string | undefined, m: Marketplace): PriceInit | undefined {
  if (!text) return undefined;
  const parsed = parsePrice(text, m);
  return parsed ? { symbol: parsed.symbol, value: parsed.value, currency: parsed.currency, display: parsed.display } : undefined;
}
