import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CacheStatus } from '@retail/contract';
import type { ParsedPage, ParsedPageSource, ParserRef } from '../cache/parsed-pages.js';
import { pageUrl } from '../cache/parsed-pages.js';
import type { ParsedProductPage } from '../parsers/product.js';
import type { ParsePool } from '../workers/pool.js';
import { runParser, type ParseArgs, type ParserId } from '../workers/parser-registry.js';
import type { ResponseMetaInit } from './fetch-parse.js';
import type { FetchedPage, OperationContext, PageKind } from './types.js';

/*
 * The optional context fields the cache and the parse pool add (engineer I, issue 4). Not merged
 * into types.ts: the lead wires them (OperationContext gains these two optional fields and the gRPC
 * dispatch passes them in). The helpers below use them when present and fall back to ctx.pages plus
 * an in-process parse otherwise, so a handler can switch before the wiring lands.
 */
export interface ParsedPagesContext {
  /** Cached, single-flight parsed pages (core/src/cache/parsed-pages.ts). */
  readonly parsedPages?: ParsedPageSource;
  /** Worker threads for the parse of big pages (core/src/workers/pool.ts). */
  readonly parsePool?: ParsePool;
}

export type OperationContextWithParsedPages = OperationContext & ParsedPagesContext;

export interface ParsedPageFetch {
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly kind: PageKind;
}

/**
 * A parsed page for a handler: `parse` runs once per page URL and parser version across every
 * operation reading that page (product, variants, stock, sales, top reviews all read /dp/ASIN).
 */
export async function parsedPage<T>(
  ctx: OperationContextWithParsedPages,
  fetch: ParsedPageFetch,
  parser: ParserRef,
  parse: (page: FetchedPage) => T | Promise<T>,
): Promise<ParsedPage<T>> {
  const request = { marketplace: ctx.marketplace, path: fetch.path, ...(fetch.query ? { query: fetch.query } : {}), kind: fetch.kind, signal: ctx.signal };
  if (ctx.parsedPages) return ctx.parsedPages.parsed(request, parser, parse);
  const page = await ctx.pages.fetchPage(request);
  return { value: await parse(page), fromCache: page.fromCache, stale: false, retrievedAt: page.retrievedAt, url: page.url || pageUrl(request) };
}

/** Runs a registered parser on the worker pool when there is one, in-process otherwise. */
export function parseOffThread<T>(ctx: ParsedPagesContext & { signal: AbortSignal }, parser: ParserId, html: string, args: ParseArgs): Promise<T> {
  if (ctx.parsePool) return ctx.parsePool.parse<T>(parser, html, args, ctx.signal);
  return Promise.resolve(runParser(parser, html, args) as T);
}

/** Response metadata of a call answered from parsed pages (the oldest page; STALE wins, then MISS). */
export function metaOfParsed(...pages: readonly ParsedPage<unknown>[]): ResponseMetaInit {
  const oldest = pages.reduce((a, b) => (b.retrievedAt < a.retrievedAt ? b : a));
  const cache = pages.some((p) => p.stale) ? CacheStatus.STALE : pages.every((p) => p.fromCache) ? CacheStatus.HIT : CacheStatus.MISS;
  return { cache, retrievedAt: timestampFromDate(oldest.retrievedAt) };
}

/** Version of the product parser's output shape: bump it when parsers/product.ts changes a field. */
export const PRODUCT_PARSER = { id: 'product', version: 1 } as const;

/**
 * The parsed /dp/ASIN page through the cache (the parsed-page twin of product-lookup.ts's
 * loadProductPage): on the worker pool when there is one. GetProduct, variants, stock, sales and
 * top reviews can all read this one record once their parsers are part of it.
 */
export function parsedProductPage(ctx: OperationContextWithParsedPages, asin: string): Promise<ParsedPage<ParsedProductPage>> {
  return parsedPage(ctx, { path: `/dp/${asin}`, kind: 'product' }, PRODUCT_PARSER, (page) =>
    parseOffThread<ParsedProductPage>(ctx, 'product', page.html, { domain: ctx.marketplace.code, asin }),
  );
}
