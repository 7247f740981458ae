import { cleanText, tryJson } from './common/dom.js';
import { query, type Page } from './common/page.js';
import type { DetailRow } from './product-details.js';

/** What a product page's schema.org JSON-LD says (video and some media pages carry it). */
export interface StructuredProduct {
  name?: string;
  rating?: number;
  ratingsTotal?: number;
  image?: string;
  brand?: string;
  /** Rows the visible details table also shows on these pages (genre, director, studio). */
  rows: DetailRow[];
}

type Json = Record<string, unknown>;

function names(value: unknown): string | undefined {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const out = list
    .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' ? (v as Json).name : undefined))
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return out.length > 0 ? out.join(', ') : undefined;
}

function num(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/,/g, '')) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** Reads the first JSON-LD object of the page that describes the item (it has a name). */
export function readStructuredData(page: Page): StructuredProduct | undefined {
  for (const el of query(page, 'script[type="application/ld+json"]').toArray()) {
    const parsed = tryJson<Json | Json[]>(page.$(el).text());
    const items = Array.isArray(parsed) ? parsed : parsed ? [parsed] : [];
    const item = items.find((i) => i && typeof i === 'object' && typeof i.name === 'string');
    if (!item) continue;
    const rating = item.aggregateRating as Json | undefined;
    const value = num(rating?.ratingValue);
    const best = num(rating?.bestRating) ?? 5;
    const image = typeof item.image === 'string' ? item.image : typeof item.thumbnailUrl === 'string' ? item.thumbnailUrl : undefined;
    const rows: DetailRow[] = [];
    const genre = names(item.genre);
    const director = names(item.director);
    const studio = names(item.productionCompany);
    if (genre) rows.push({ name: 'Genres', value: genre });
    if (director) rows.push({ name: 'Director', value: director });
    if (studio) rows.push({ name: 'Studio', value: studio });
    return {
      name: cleanText(item.name as string),
      ...(value !== undefined && best > 0 ? { rating: Math.round((value / best) * 5 * 10) / 10 } : {}),
      ...(num(rating?.reviewCount ?? rating?.ratingCount) !== undefined ? { ratingsTotal: num(rating?.reviewCount ?? rating?.ratingCount)! } : {}),
      ...(image ? { image } : {}),
      ...(names(item.brand) ? { brand: names(item.brand)! } : {}),
      rows,
    };
  }
  return undefined;
}
