import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CacheStatus, ErrorReason, type ResponseMetaSchema } from '@retail/contract';
import { CoreError } from '../errors.js';
import type { ProductLookup } from '../validation/types.js';
import type { FetchedPage, OperationContext, PageKind } from './types.js';

/*
 * Shared steps of the page-kind handlers (search, best sellers, seller, variants, offers, reviews,
 * stock, sales): fetch one marketplace page through the context's fetcher, map what the page says
 * about itself to the error table, and describe the fetch in the response metadata.
 */

export type ResponseMetaInit = MessageInitShape<typeof ResponseMetaSchema>;

export interface PageFetch {
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly kind: PageKind;
  /** What the page is, for error messages ("product", "seller storefront"). */
  readonly what: string;
}

/**
 * Fetches a page; a marketplace 404 is NOT_FOUND, any other non-200 answer UPSTREAM_ERROR. Block
 * pages (captcha, robot check, sign-in walls) are the upstream client's to classify before this.
 */
export async function fetchPage(ctx: OperationContext, request: PageFetch): Promise<FetchedPage> {
  const page = await ctx.pages.fetchPage({
    marketplace: ctx.marketplace,
    path: request.path,
    ...(request.query ? { query: request.query } : {}),
    kind: request.kind,
    signal: ctx.signal,
  });
  if (page.status === 404 || page.status === 410) {
    throw new CoreError(ErrorReason.NOT_FOUND, `The marketplace has no such ${request.what}.`);
  }
  if (page.status < 200 || page.status >= 300) {
    throw new CoreError(ErrorReason.UPSTREAM_ERROR, `The marketplace answered the ${request.what} page with an unexpected status.`, {
      cause: new Error(`HTTP ${page.status} for ${page.url}`),
    });
  }
  return page;
}

/** The response metadata of a call answered from `page` (the oldest page when several were read). */
export function metaOf(...pages: readonly FetchedPage[]): ResponseMetaInit {
  const oldest = pages.reduce((a, b) => (b.retrievedAt < a.retrievedAt ? b : a));
  const allCached = pages.every((p) => p.fromCache);
  return { cache: allCached ? CacheStatus.HIT : CacheStatus.MISS, retrievedAt: timestampFromDate(oldest.retrievedAt) };
}

/** An UPSTREAM_ERROR for a page that lacks what the operation cannot do without. */
export function unparseable(what: string, detail: string): CoreError {
  return new CoreError(ErrorReason.UPSTREAM_ERROR, `The marketplace's ${what} page could not be read.`, { cause: new Error(detail) });
}

/**
 * Resolves a product lookup to an ASIN. The handlers take the product operations' resolver
 * (product-lookup.ts: GTINs through marketplace search, verified on the candidate's page) by
 * default; tests may pass their own.
 */
export type AsinResolver = (lookup: ProductLookup, ctx: OperationContext) => Promise<string>;

/** Truncates a page's results to `limit` (CONTRACT.md: limit truncates the marketplace's page). */
export function applyLimit<T>(results: readonly T[] | undefined, limit: number | undefined): T[] {
  const all = [...(results ?? [])];
  return limit === undefined ? all : all.slice(0, limit);
}

/** Is this a product detail page at all (and not, say, a search or error page served at /dp/)? */
export function looksLikeProductPage(html: string): boolean {
  return /id=["']productTitle["']|id=["']dp-container["']|id=["']ASIN["']|dimensionValuesDisplayData|id=["']dp["']/.test(html);
}
