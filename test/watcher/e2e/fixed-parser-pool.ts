/**
 * "The parser fix" of the re-parsing tests: a parse pool whose product-page parser, once `fixed`,
 * also reads the buy box as the replay server's `buybox-redesign` drift serves it (the new price
 * widget's and availability block's names, test/replay/layout-drift.ts), and says so with a version
 * one above the registry's, as a real fix bumps PRODUCT_PAGE_PARTS_VERSION. It reads the new names
 * by mapping them onto the ones the real parser knows, then runs the real parser: the test's stand-in
 * for the selector changes a fix would make, with everything else (the record, GetProduct's mapping)
 * the project's own code. Parses run on this thread (size 0), as a PARSE_WORKERS=0 core does.
 */
import { runParser, parserVersion, type ParseArgs, type ParserId } from '../../../core/src/workers/parser-registry.js';
import type { ParsePool } from '../../../core/src/workers/pool.js';
import { AVAILABILITY_RENAMES, PRICE_RENAMES } from '../../replay/layout-drift.js';

/** The redesigned buy box's names, each read as the name the parser knows (the drift's renames, undone last-first). */
const NEW_NAMES = [...PRICE_RENAMES, ...AVAILABILITY_RENAMES].reverse().map(([known, renamed]) => [renamed, known] as const);

export function readsRedesignedBuybox(html: string): string {
  return NEW_NAMES.reduce((page, [renamed, known]) => page.split(renamed).join(known), html);
}

export function createFixableParsePool(): ParsePool & { fixed: boolean; version(parser: ParserId): number } {
  const pool = {
    fixed: false,
    size: 0,
    queued: 0,
    parse: async <T>(parser: ParserId, html: string, args: ParseArgs): Promise<T> =>
      runParser(parser, pool.fixed && parser === 'product-page' ? readsRedesignedBuybox(html) : html, args) as T,
    version: (parser: ParserId) => parserVersion(parser) + (pool.fixed && parser === 'product-page' ? 1 : 0),
    close: async () => undefined,
  };
  return pool;
}
