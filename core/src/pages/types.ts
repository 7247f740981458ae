import type { Marketplace } from '../marketplaces/index.js';

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
  /**
   * 'background' for work nobody waits on (a bulk job's items, marked by the caller's
   * `x-retail-priority: background`): the per-host caps let waiting interactive requests go first.
   */
  readonly priority?: RequestPriority;
  /**
   * Skip the page cache's entry (never its single flight, host caps, rate limits or breaker) and
   * never serve a stale one: the page as the marketplace shows it now. The fetched page replaces the
   * cached one. Set by the watcher's confirmation read (`x-retail-read: fresh`).
   */
  readonly fresh?: boolean;
}

export type RequestPriority = 'interactive' | 'background';

export interface FetchedPage {
  readonly status: number;
  readonly html: string;
  /** The URL as the marketplace knows it (never the replay origin). */
  readonly url: string;
  readonly retrievedAt: Date;
  readonly fromCache: boolean;
  /** The answer's Content-Type, when it sent one (the page archive keeps it). */
  readonly contentType?: string;
}

/**
 * Fetches marketplace pages. Implemented by the upstream client (core/src/upstream); tests pass
 * their own. It rebuilds every URL from the marketplace and a path: never a client's URL.
 */
export interface PageFetcher {
  fetchPage(request: PageRequest): Promise<FetchedPage>;
}
