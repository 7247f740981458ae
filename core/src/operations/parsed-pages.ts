import type { ParsedPageSource } from '../cache/parsed-pages.js';
import type { ParsePool } from '../workers/pool.js';
import type { OperationContext } from './types.js';

/*
 * The optional context fields the cache and the parse pool add (engineer I, issue 4). Not merged
 * into types.ts yet: the lead wires them (OperationContext gains these two optional fields and the
 * gRPC dispatch passes them in). Handlers use them when present and fall back to ctx.pages + an
 * in-process parse otherwise, so nothing breaks before the wiring.
 */
export interface ParsedPagesContext {
  /** Cached, single-flight parsed pages (core/src/cache/parsed-pages.ts). */
  readonly parsedPages?: ParsedPageSource;
  /** Worker threads for the parse of big pages (core/src/workers/pool.ts). */
  readonly parsePool?: ParsePool;
}

export type OperationContextWithParsedPages = OperationContext & ParsedPagesContext;
