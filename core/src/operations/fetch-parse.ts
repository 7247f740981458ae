import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type ResponseMetaSchema } from '@retail/contract';
import { CoreError } from '../errors.js';
import { UNPARSEABLE_CAUSE_PREFIX } from '../resilience/outcome-class.js';
import type { ProductLookup } from '../validation/request-fields.js';
import type { OperationContext } from './types.js';
import type { FetchedPage, PageKind } from '../pages/types.js';

/*
 * Shared steps of the handlers: what a page fetch names, how a page's HTTP status and an unreadable
 * page map to the error table, and the shapes of response metadata and ASIN resolution. Reading a
 * page (cache, single-flight, worker pool) is parsed-pages.ts.
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
 * A marketplace 404 (or 410) is NOT_FOUND, any other non-2xx answer UPSTREAM_ERROR. Block pages
 * (captcha, robot check, sign-in walls) are the upstream client's to classify before this.
 */
export function checkPageStatus(page: FetchedPage, what: string): void {
  if (page.status === 404 || page.status === 410) {
    throw new CoreError(ErrorReason.NOT_FOUND, `The marketplace has no such ${what}.`);
  }
  if (page.status < 200 || page.status >= 300) {
    throw new CoreError(ErrorReason.UPSTREAM_ERROR, `The marketplace answered the ${what} page with an unexpected status.`, {
      cause: new Error(`HTTP ${page.status} for ${page.url}`),
    });
  }
}

/** An UPSTREAM_ERROR for a page that lacks what the operation cannot do without. */
export function unparseable(what: string, detail: string, publicMessage = `The marketplace's ${what} page could not be read.`): CoreError {
  return new CoreError(ErrorReason.UPSTREAM_ERROR, publicMessage, { cause: new Error(`${UNPARSEABLE_CAUSE_PREFIX} ${detail}`) });
}

/**
 * Resolves a product lookup to an ASIN. The handlers take the product operations' resolver
 * (product-lookup.ts: GTINs through marketplace search, verified on the candidate's page) by
 * default; tests may pass their own.
 */
export type AsinResolver = (lookup: ProductLookup, ctx: OperationContext) => Promise<string>;

/** Truncates a page's results to `limit` (docs/contract.md: limit truncates the marketplace's page). */
export function applyLimit<T>(results: readonly T[] | undefined, limit: number | undefined): T[] {
  const all = [...(results ?? [])];
  return limit === undefined ? all : all.slice(0, limit);
}
