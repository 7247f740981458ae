import { ErrorReason } from '@retail/contract';
import type { Logger } from 'pino';
import { CoreError, isCoreError } from '../errors.js';
import type { FetchedPage, PageFetcher, PageKind, PageRequest } from '../pages/types.js';
import type { UpstreamMetrics } from '../outcomes/metrics.js';
import { isHostFailure } from '../outcomes/causes.js';
import { outcomeClassOf, type OutcomeClass } from '../resilience/outcome-class.js';
import { inSpan } from '../telemetry/tracing.js';
import { hostForKind, pathWithQuery } from '../pages/hosts.js';
import { DEFAULT_TTL_SECONDS, pageCacheKey, type CacheEntry, type PageCache } from './page-cache.js';
import { createSingleFlight, type SingleFlight } from './single-flight.js';
import { currentArchiveHint } from '../archive/archive-hint.js';
import { refusedPageOf, withRefusedPage } from '../archive/refused-page.js';
import type { PageArchiveTap } from '../archive/page-archive-tap.js';
import { processPageArchiveTap } from '../archive/archive-settings.js';

/** Which parser reads the page: its version is part of the cache key. */
export interface ParserRef {
  readonly id: string;
  readonly version: string | number;
}

export interface ParsedPage<T> {
  readonly value: T;
  /** True when no upstream fetch happened for this call (fresh hit or stale fallback). */
  readonly fromCache: boolean;
  /** Served past its fresh time because the marketplace failed (docs/contract.md: X-Cache STALE). */
  readonly stale: boolean;
  readonly retrievedAt: Date;
  readonly url: string;
}

/**
 * Handlers ask for a parsed page rather than HTML: product, variants, stock, sales and top reviews
 * of one /dp/ page then share one fetch and one parse (same URL, same parser), from the cache or
 * from one single-flight upstream fetch.
 */
export interface ParsedPageSource {
  /** `parse` gets the shared fetch's signal: it aborts only when every caller waiting on it has gone. */
  parsed<T>(request: PageRequest, parser: ParserRef, parse: (page: FetchedPage, signal: AbortSignal) => T | Promise<T>): Promise<ParsedPage<T>>;
}

export interface ParsedPageSourceOptions {
  readonly fetcher: PageFetcher;
  readonly cache?: PageCache;
  /** Fresh seconds per page kind (defaults: DEFAULT_TTL_SECONDS). */
  readonly ttlSeconds?: Partial<Record<PageKind, number>>;
  /** How long a NOT_FOUND is remembered (default 60 s; 0 = never). */
  readonly negativeTtlSeconds?: number;
  /** Keep entries this long past fresh and serve them when the marketplace fails (0 = off). */
  readonly staleSeconds?: number;
  readonly now?: () => number;
  readonly metrics?: Pick<UpstreamMetrics, 'cache'>;
  readonly logger?: Pick<Logger, 'debug' | 'warn'>;
  /** Where fetched pages go for the page archive (docs/page-archive.md); the process's own from the environment by default, `false` for none. */
  readonly archive?: PageArchiveTap | false;
}

/** Upstream failures a stale entry may stand in for: the marketplace (or the way to it), not the request, is at fault. */
const staleOk = (outcome: OutcomeClass): boolean => isHostFailure(outcome) || outcome === 'circuit-open' || outcome === 'rate-capped';

export function pageUrl(request: PageRequest): string {
  return `https://${hostForKind(request.marketplace, request.kind)}${pathWithQuery(request.path, request.query)}`;
}

export function createParsedPageSource(options: ParsedPageSourceOptions): ParsedPageSource & { readonly flights: SingleFlight } {
  const now = options.now ?? Date.now;
  const flights = createSingleFlight();
  const negativeMs = (options.negativeTtlSeconds ?? 60) * 1000;
  const staleMs = (options.staleSeconds ?? 0) * 1000;
  const freshMs = (kind: PageKind) => (options.ttlSeconds?.[kind] ?? DEFAULT_TTL_SECONDS[kind]) * 1000;
  const archive = options.archive === false ? undefined : (options.archive ?? processPageArchiveTap(options.logger));
  // A fetch is kept once, whichever of the callers sharing it asks: a watch refresh riding on
  // another caller's fetch still keeps the page that caller's sample passed over.
  const kept = new WeakSet<FetchedPage>();
  /** Offers a fetched page to the archive; the compression and hand-off run after the call's own work, never awaited by it. */
  function offer(request: PageRequest, parser: ParserRef, page: FetchedPage, result: { record?: unknown; refused?: 'blocked' | 'unparseable' }) {
    if (!archive || kept.has(page)) return;
    const input = { request, parser, page, hint: currentArchiveHint(), ...result };
    const verdict = archive.decide(input);
    if (!verdict) return;
    kept.add(page);
    setImmediate(() => void archive.keep(input, verdict));
  }

  async function store(key: string, entry: CacheEntry, ttlMs: number) {
    if (options.cache && ttlMs > 0) await options.cache.set(key, entry, ttlMs);
  }

  /** The cache read in its own span, so a trace shows what the store answered and how long it took. */
  function lookup(cache: PageCache, key: string, url: string, parser: ParserRef): Promise<CacheEntry | undefined> {
    return inSpan('page cache lookup', { attributes: { 'url.full': url, 'retail.parser': parser.id } }, async (span) => {
      const entry = await cache.get(key);
      const result = !entry ? 'miss' : entry.freshUntil <= now() ? 'expired' : entry.notFound !== undefined ? 'negative-hit' : 'hit';
      span.setAttribute('retail.cache.result', result);
      return entry;
    });
  }

  return {
    flights,
    async parsed<T>(request: PageRequest, parser: ParserRef, parse: (page: FetchedPage, signal: AbortSignal) => T | Promise<T>): Promise<ParsedPage<T>> {
      const url = pageUrl(request);
      const key = pageCacheKey(url, parser.id, parser.version);
      // A fresh read looks nothing up: neither a fresh hit nor a stale fallback may answer it.
      const cached = options.cache && !request.fresh ? await lookup(options.cache, key, url, parser) : undefined;
      if (cached && cached.freshUntil > now()) {
        if (cached.notFound !== undefined) {
          options.metrics?.cache('negative-hit');
          throw new CoreError(ErrorReason.NOT_FOUND, cached.notFound, { cause: new Error(`${url}: remembered not-found`) });
        }
        options.metrics?.cache('hit');
        return { value: cached.value as T, fromCache: true, stale: false, retrievedAt: new Date(cached.retrievedAt), url: cached.url };
      }
      // The shared fetch's retry policy reads `deadlineAt` whenever it decides: the latest deadline
      // of the callers waiting on it by then.
      const fetchAndStore = async (signal: AbortSignal, deadline: () => number | undefined) => {
        const sharedRequest: PageRequest = Object.defineProperty({ ...request, signal }, 'deadlineAt', { get: deadline, enumerable: true });
        const page = await options.fetcher.fetchPage(sharedRequest);
        let record: T;
        try {
          record = await parse(page, signal);
        } catch (error) {
          throw signal.aborted ? error : withRefusedPage(error, page);
        }
        const retrievedAt = page.retrievedAt.getTime();
        const fresh = freshMs(request.kind);
        await store(key, { value: record, url: page.url, retrievedAt, freshUntil: now() + fresh }, fresh + staleMs);
        return { record, retrievedAt, url: page.url, page };
      };
      try {
        const { value, shared } = await flights.run(key, request.signal, fetchAndStore, request.deadlineAt);
        options.metrics?.cache(shared ? 'shared' : 'miss');
        offer(request, parser, value.page, { record: value.record });
        // Followers get their own copy: a handler may adjust its record without touching another's.
        const record = shared ? structuredClone(value.record) : value.record;
        return { value: record, fromCache: false, stale: false, retrievedAt: new Date(value.retrievedAt), url: value.url };
      } catch (error) {
        const refused = refusedPageOf(error);
        if (refused) offer(request, parser, refused, { refused: isCoreError(error) && error.reason === ErrorReason.UPSTREAM_BLOCKED ? 'blocked' : 'unparseable' });
        if (isCoreError(error) && error.reason === ErrorReason.NOT_FOUND && negativeMs > 0) {
          await store(key, { notFound: error.message, url, retrievedAt: now(), freshUntil: now() + negativeMs }, negativeMs);
        } else if (staleMs > 0 && cached?.notFound === undefined && cached && staleOk(outcomeClassOf(error))) {
          options.metrics?.cache('stale');
          options.logger?.debug({ url, err: error }, 'serving a stale page: the marketplace failed');
          return { value: cached.value as T, fromCache: true, stale: true, retrievedAt: new Date(cached.retrievedAt), url: cached.url };
        }
        throw error;
      }
    },
  };
}
