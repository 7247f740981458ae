import type { ServerUnaryCall, UntypedServiceImplementation, sendUnaryData } from '@grpc/grpc-js';
import { create } from '@bufbuild/protobuf';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { PageArchiveService, ReparseArchivedPageResponseSchema, type ReparseArchivedPageRequest } from '@retail/contract';
import { invalidArgument, isCoreError } from '../errors.js';
import type { Logger } from '../logger.js';
import { findMarketplaceByCode } from '../marketplaces/index.js';
import { parserVersionIn } from '../operations/parsed-pages.js';
import { getProduct } from '../operations/product.js';
import { getSalesEstimate } from '../operations/sales.js';
import type { OperationContext } from '../operations/types.js';
import type { ParsedPage, ParsedPageSource } from '../cache/parsed-pages.js';
import type { PageFetcher } from '../pages/types.js';
import type { ParsePool } from '../workers/pool.js';
import { coreErrorStatus, toCoreError } from './status.js';

/*
 * retail.v1.PageArchiveService (proto/retail/v1/page_archive.proto): an archived page read again by
 * the current parser, for the watcher's re-parsing job (docs/page-archive.md, Repairing history).
 * The page is served to the very handlers a live call runs (GetProduct, GetSalesEstimate) by a
 * fetcher that only knows that page, and without the page services: so the answer is what a live
 * call would say of that page today, and nothing is fetched, cached, counted in field health or
 * archived again.
 */

const decompress = { br: promisify(brotliDecompress), gzip: promisify(gunzip) } as const;

/** The parser the product operations read a /dp/ page with (operations/product-pages.ts). */
const PRODUCT_PARSER = 'product-page';

/** A fetcher that answers with the archived page and knows no other. */
function archivedPageFetcher(request: ReparseArchivedPageRequest, html: string): PageFetcher {
  return {
    fetchPage: async () => ({ status: request.status || 200, html, url: request.url, retrievedAt: new Date(), fromCache: false }),
  };
}

/**
 * The call's page parsed once: GetProduct and GetSalesEstimate read it with the same parser and
 * arguments, which on the live path share one parse through the parsed-page cache. This call goes
 * without that cache, and parsing the page twice was half of its CPU (docs/page-archive.md, What a
 * re-parse costs). A failed parse is the same failure for both.
 */
function parsedOnce(fetcher: PageFetcher): ParsedPageSource {
  const parses = new Map<string, Promise<ParsedPage<unknown>>>();
  return {
    parsed<T>(...[request, parser, parse]: Parameters<ParsedPageSource['parsed']>): Promise<ParsedPage<T>> {
      const key = `${parser.id}@${parser.version}`;
      let parsed = parses.get(key);
      if (!parsed) {
        parsed = (async () => {
          const page = await fetcher.fetchPage(request);
          return { value: await parse(page, request.signal ?? new AbortController().signal), fromCache: false, stale: false, retrievedAt: page.retrievedAt, url: page.url };
        })();
        parses.set(key, parsed);
      }
      return parsed as Promise<ParsedPage<T>>;
    },
  };
}

async function reparse(request: ReparseArchivedPageRequest, deps: { parsePool?: ParsePool; logger: Logger }) {
  const marketplace = findMarketplaceByCode(request.marketplace);
  if (!marketplace) throw invalidArgument(`marketplace must be a domain code ("US"), got ${JSON.stringify(request.marketplace)}`, 'marketplace');
  if (request.kind !== 'product') throw invalidArgument(`only product pages are re-parsed, got kind ${JSON.stringify(request.kind)}`, 'kind');
  if (!/^[A-Z0-9]{10}$/.test(request.identifier)) throw invalidArgument('identifier must be the ASIN of the product page', 'identifier');
  const inflate = decompress[request.encoding as keyof typeof decompress];
  if (!inflate) throw invalidArgument(`encoding must be br or gzip, got ${JSON.stringify(request.encoding)}`, 'encoding');
  const html = (await inflate(request.body)).toString('utf8');
  const pages = archivedPageFetcher(request, html);
  const ctx: OperationContext = {
    marketplace,
    signal: new AbortController().signal,
    pages,
    parsedPages: parsedOnce(pages),
    logger: deps.logger,
    requestId: `reparse-${request.identifier}`,
    ...(deps.parsePool ? { parsePool: deps.parsePool } : {}),
  };
  const lookup = { marketplace, lookup: { kind: 'asin' as const, asin: request.identifier, source: 'asin' as const } };
  // An unreadable page is an answer here (the parser could not read it), not a failure of the call.
  const unreadable = (error: unknown) => {
    if (!isCoreError(error)) throw error;
    return error.message;
  };
  const product = await getProduct(lookup, ctx).catch(unreadable);
  const sales = await getSalesEstimate(lookup, ctx).catch(unreadable);
  return create(ReparseArchivedPageResponseSchema, {
    parser: `${PRODUCT_PARSER}@${parserVersionIn(ctx, PRODUCT_PARSER)}`,
    ...(typeof product === 'string' ? { unreadable: product } : product.retailProduct ? { product: product.retailProduct } : {}),
    ...(typeof sales !== 'string' && sales.retailProduct ? { sales: sales.retailProduct } : {}),
  });
}

export function createPageArchiveImplementation(deps: { parsePool?: ParsePool; logger: Logger }): UntypedServiceImplementation {
  return {
    [PageArchiveService.method.reparseArchivedPage.name]: (call: ServerUnaryCall<ReparseArchivedPageRequest, unknown>, callback: sendUnaryData<unknown>) => {
      reparse(call.request, deps).then(
        (response) => callback(null, response),
        (error: unknown) => {
          const coreError = toCoreError(error, false);
          if (!isCoreError(error)) deps.logger.warn({ err: error, rpc: call.getPath() }, 'page archive call failed');
          callback(coreErrorStatus(coreError));
        },
      );
    },
  };
}
