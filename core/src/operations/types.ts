import type { Logger } from 'pino';
import type { ParsedPageSource } from '../cache/parsed-pages.js';
import type { Marketplace } from '../marketplaces/index.js';
import type { PageFetcher, RequestPriority } from '../pages/types.js';
import type { ParsePool } from '../workers/pool.js';

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
  /** Background work (a bulk job's item): its page requests yield to interactive ones at the host caps. */
  readonly priority?: RequestPriority;
  /** Pages are fetched past the page cache (the watcher's confirmation read, `x-retail-read: fresh`). */
  readonly freshRead?: boolean;
  /**
   * Cached, single-flight parsed pages (core/src/cache/parsed-pages.ts): every operation reading a
   * page asks for it parsed, so operations on one page share one fetch and one parse. Absent (unit
   * tests with a bare fetcher): pages come from `pages`, parsed on the spot.
   */
  readonly parsedPages?: ParsedPageSource;
  /** Worker threads for the parse of big pages (core/src/workers/pool.ts); absent = this thread. */
  readonly parsePool?: ParsePool;
  /**
   * Whether the upstream client sends a signed-in marketplace session with review-list fetches
   * (REVIEWS_SESSION_COOKIE, from the core's configuration); without one, filtered and later review
   * pages are SESSION_REQUIRED.
   */
  readonly reviewsSession?: boolean;
}

/**
 * One RPC's implementation. `Req` is the validated request (what the operation's normalizer returns),
 * `Res` the MessageInitShape of the RPC's response schema. Throw CoreError for expected failures.
 */
export type OperationHandler<Req, Res> = (request: Req, ctx: OperationContext) => Promise<Res>;
