import { promisify } from 'node:util';
import { gunzip, gzip, constants } from 'node:zlib';
import type { FetchedPage, PageFetcher, PageRequest } from '../pages/types.js';
import type { ParsedPageSource } from './parsed-pages.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** What the page cache keeps of a fetched page: its status and its HTML, gzip-compressed. */
interface StoredPage {
  readonly status: number;
  readonly gz: Buffer;
}

/** Bump when StoredPage changes. */
export const PAGE_HTML_PARSER = { id: 'html-gz', version: 1 } as const;

/** A FetchedPage served from an expired entry after an upstream failure (grpc/page-tracker reads `stale`). */
export type MaybeStalePage = FetchedPage & { readonly stale?: boolean };

/**
 * The cache for callers that need a page's HTML itself (`ctx.pages.fetchPage`; every handler reads
 * parsed pages instead, and bench/cache.ts compares the two): cache HIT/MISS/STALE, single-flight,
 * the NOT_FOUND negative cache and serve-stale, as for parsed pages. It is the parsed-page source
 * with a "parser" that keeps the page itself, gzip-compressed off the event loop (zlib's async API
 * runs on the libuv pool): 1–2 MB pages shrink 5–10×, so the byte-bounded store holds that many more.
 */
export function withPageCache(source: ParsedPageSource): PageFetcher {
  return {
    async fetchPage(request: PageRequest): Promise<MaybeStalePage> {
      const got = await source.parsed<StoredPage>(request, PAGE_HTML_PARSER, async (page) => ({
        status: page.status,
        gz: await gzipAsync(page.html, { level: constants.Z_BEST_SPEED }),
      }));
      const html = (await gunzipAsync(got.value.gz)).toString('utf8');
      return { status: got.value.status, html, url: got.url, retrievedAt: got.retrievedAt, fromCache: got.fromCache, ...(got.stale ? { stale: true } : {}) };
    },
  };
}
