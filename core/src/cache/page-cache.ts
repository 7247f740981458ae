import { deserialize, serialize } from 'node:v8';
import type { PageKind } from '../pages/types.js';

/**
 * One cached parsed page: the parser's record (or a short negative answer for NOT_FOUND), where it
 * came from and when, and until when it is fresh. Past `freshUntil` an entry is only good for
 * serve-stale-on-upstream-error.
 */
export interface CacheEntry {
  /** The parsed record; absent for a negative (NOT_FOUND) entry. */
  readonly value?: unknown;
  /** Public message of the NOT_FOUND a negative entry replays. */
  readonly notFound?: string;
  readonly url: string;
  /** When the marketplace page was fetched (epoch ms). */
  readonly retrievedAt: number;
  readonly freshUntil: number;
}

/**
 * The page cache: one interface, two stores (redis-store.ts, memory-store.ts). A store never
 * throws: a failing backend reads as a miss and a write is dropped (logged and counted), so a cache
 * outage degrades to no cache instead of failing requests.
 */
export interface PageCache {
  readonly backend: 'redis' | 'memory';
  get(key: string): Promise<CacheEntry | undefined>;
  /** Keeps the entry for `ttlMs` (its fresh time plus any stale window). */
  set(key: string, entry: CacheEntry, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}

/*
 * Entries travel as V8 structured-clone bytes: parsed records carry bigint (int64 fields) and nested
 * arrays that JSON would mangle, the byte length is the honest size for the LRU bound, and every
 * reader gets its own copy (a handler can never change what the next one reads).
 */
export const encodeEntry = (entry: CacheEntry): Buffer => serialize(entry);
export const decodeEntry = (bytes: Buffer): CacheEntry => deserialize(bytes) as CacheEntry;

/**
 * Key of a parsed page: the page URL as the marketplace knows it plus the parser's id and version,
 * so a parser change never serves records of the old shape.
 */
export function pageCacheKey(url: string, parserId: string, parserVersion: string | number): string {
  return `retail:page:${parserId}@${parserVersion}:${url}`;
}

/** Fresh lifetime per page kind in seconds (config may override each). */
export const DEFAULT_TTL_SECONDS: Readonly<Record<PageKind, number>> = {
  product: 15 * 60,
  offers: 5 * 60,
  reviews: 60 * 60,
  search: 10 * 60,
  autocomplete: 60 * 60,
  deals: 5 * 60,
  bestsellers: 60 * 60,
  'bestseller-categories': 24 * 60 * 60,
  seller: 60 * 60,
  author: 6 * 60 * 60,
  categories: 24 * 60 * 60,
  category: 60 * 60,
};
