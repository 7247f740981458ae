import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CacheStatus } from '@retail/contract';
import type { ParsedPage, ParserRef } from '../cache/parsed-pages.js';
import { pageUrl } from '../cache/parsed-pages.js';
import { parserVersion, runParser, type ParseArgs, type ParserId } from '../workers/parser-registry.js';
import { checkPageStatus, unparseable, type PageFetch, type ResponseMetaInit } from './fetch-parse.js';
import type { OperationContext } from './types.js';
import type { FetchedPage } from '../pages/types.js';

/*
 * How handlers read pages: fetched through the page cache and single-flight, status-checked,
 * parsed by a registered parser on the worker pool, cached as parsed data. Five operations on one
 * product (product, variants, stock, sales, top reviews) thus share one fetch and one parse, and a
 * 1–2 MB page never holds the gRPC server's event loop.
 */

/** The parsed page through ctx.parsedPages, or (no page services: unit tests) fetched and parsed now. */
export async function parsedPage<T>(
  ctx: OperationContext,
  fetch: Omit<PageFetch, 'what'>,
  parser: ParserRef,
  parse: (page: FetchedPage, signal: AbortSignal) => T | Promise<T>,
): Promise<ParsedPage<T>> {
  const request = {
    marketplace: ctx.marketplace,
    path: fetch.path,
    ...(fetch.query ? { query: fetch.query } : {}),
    kind: fetch.kind,
    signal: ctx.signal,
    ...(ctx.deadlineAt !== undefined ? { deadlineAt: ctx.deadlineAt } : {}),
    ...(ctx.priority ? { priority: ctx.priority } : {}),
    ...(ctx.freshRead ? { fresh: true } : {}),
  };
  if (ctx.parsedPages) return ctx.parsedPages.parsed(request, parser, parse);
  const page = await ctx.pages.fetchPage(request);
  const stale = (page as FetchedPage & { stale?: boolean }).stale === true;
  return { value: await parse(page, ctx.signal), fromCache: page.fromCache, stale, retrievedAt: page.retrievedAt, url: page.url || pageUrl(request) };
}

/** Runs a registered parser on the worker pool when there is one, in this thread otherwise. */
export function parseOffThread<T>(ctx: OperationContext, signal: AbortSignal, parser: ParserId, html: string, args: ParseArgs): Promise<T> {
  if (ctx.parsePool) return ctx.parsePool.parse<T>(parser, html, args, signal);
  return Promise.resolve(runParser(parser, html, args) as T);
}

/** The version of `parser` a call's pages are read with: its pool's when the pool says, else the registry's. */
export function parserVersionIn(ctx: Pick<OperationContext, 'parsePool'>, parser: ParserId): number {
  return ctx.parsePool?.version?.(parser) ?? parserVersion(parser);
}

/** Arguments in a fixed order, so equal arguments make one cache key. */
function stableArgs(args: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(Object.keys(args).sort().map((k) => [k, args[k]]));
}

export interface ReadPageOptions<T> {
  /** The parser's arguments besides the marketplace (part of the cache key). */
  readonly args?: Readonly<Record<string, unknown>>;
  /**
   * Throws (unparseable) when the parsed page lacks what the operation cannot do without. It runs
   * before the entry is stored, so an unreadable page is an error every time, never a cached one.
   */
  readonly usable?: (value: T) => void;
}

/**
 * A page read by a registered parser. A marketplace 404 is NOT_FOUND (and remembered briefly by the
 * cache), any other non-2xx UPSTREAM_ERROR.
 */
export function readPage<T>(ctx: OperationContext, fetch: PageFetch, parser: ParserId, options: ReadPageOptions<T> = {}): Promise<ParsedPage<T>> {
  const args = options.args ?? {};
  const ref = { id: parser, version: `${parserVersionIn(ctx, parser)}:${stableArgs(args)}` };
  return parsedPage(ctx, fetch, ref, async (page, signal) => {
    checkPageStatus(page, fetch.what);
    const value = await parseOffThread<T>(ctx, signal, parser, page.html, { ...args, domain: ctx.marketplace.code });
    options.usable?.(value);
    return value;
  });
}

/**
 * readPage for a page whose whole answer is one list that every readable page has (a directory, a
 * department tree): an empty list means the layout was not understood, so the page is unparseable
 * (`emptyCause` says what was missing) rather than an empty answer.
 */
export function readListPage<T>(ctx: OperationContext, fetch: PageFetch, parser: ParserId, emptyCause: string): Promise<ParsedPage<T[]>> {
  return readPage<T[]>(ctx, fetch, parser, {
    usable: (items) => {
      if (items.length === 0) throw unparseable(fetch.what, emptyCause);
    },
  });
}

/** Response metadata of a call answered from parsed pages (the oldest page; STALE wins, then MISS). */
export function metaOfParsed(...pages: readonly Pick<ParsedPage<unknown>, 'fromCache' | 'stale' | 'retrievedAt'>[]): ResponseMetaInit {
  const oldest = pages.reduce((a, b) => (b.retrievedAt < a.retrievedAt ? b : a));
  const cache = pages.some((p) => p.stale) ? CacheStatus.STALE : pages.every((p) => p.fromCache) ? CacheStatus.HIT : CacheStatus.MISS;
  return { cache, retrievedAt: timestampFromDate(oldest.retrievedAt) };
}
