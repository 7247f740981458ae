import type { Logger } from 'pino';
import type { ParsedPageSource } from '../cache/parsed-pages.js';
import type { Marketplace } from '../marketplaces/index.js';
import type { ParsePool } from '../workers/pool.js';

/** The kinds of marketplace pages the upstream client fetches (one parser module each). */
export type PageKind =
  | 'product'
  | 'offers'
  | 'reviews'
  | 'search'
  | 'autocomplete'
  | 'deals'
  | 'bestsellers'
  | 'bestseller-categories'
  | 'seller'
  | 'author'
  | 'categories'
  | 'category';

export interface PageRequest {
  readonly marketplace: Marketplace;
  /** Path on the marketplace's storefront (or suggestion host for autocomplete), e.g. '/dp/B000000000'. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly kind: PageKind;
  /** Aborted at the call's deadline or when the client cancels. */
  readonly signal: AbortSignal;
  /** The call's deadline (epoch ms), when known: retries stop early instead of sleeping into the abort. */
  readonly deadlineAt?: number;
}

export interface FetchedPage {
  readonly status: number;
  readonly html: string;
  /** The URL as the marketplace knows it (never the replay origin). */
  readonly url: string;
  readonly retrievedAt: Date;
  readonly fromCache: boolean;
}

/**
 * Fetches marketplace pages. Implemented by the upstream client (core/src/upstream); tests pass
 * their own. It rebuilds every URL from the marketplace and a path: never a client's URL.
 */
export interface PageFetcher {
  fetchPage(request: PageRequest): Promise<FetchedPage>;
}

/** What a handler gets besides its validated request. */
export interface OperationContext {
  readonly marketplace: Marketplace;
  /** The call's deadline and cancellation. */
  readonly signal: AbortSignal;
  /** The call's deadline (epoch ms); page requests carry it to the retry policy. */
  readonly deadlineAt?: number;
  readonly pages: PageFetcher;
  readonly logger: Logger;
  readonly requestId: string;
  /**
   * Cached, single-flight parsed pages (core/src/cache/parsed-pages.ts): every operation reading a
   * page asks for it parsed, so operations on one page share one fetch and one parse. Absent (unit
   * tests with a bare fetcher): pages come from `pages`, parsed on the spot.
   */
  readonly parsedPages?: ParsedPageSource;
  /** Worker threads for the parse of big pages (core/src/workers/pool.ts); absent = this thread. */
  readonly parsePool?: ParsePool;
}

/**
 * One RPC's implementation. `Req` is the validated request (core/src/validation, ValidatedRequests),
 * `Res` the MessageInitShape of the RPC's response schema. Throw CoreError for expected failures.
 */
export type OperationHandler<Req, Res> = (request: Req, ctx: OperationContext) => Promise<Res>;
