/**
 * retail.v1.ArchivedPageService (proto/retail/v1/page_archive.proto): the pages the archive keeps
 * (docs/page-archive.md), for the console's operator view. No account: the archive is the
 * deployment's, and the console checks the operator role before it calls; the service token is
 * still required (the server's interceptor).
 */
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  ArchivedPageService, ArchivedPageSummarySchema, ErrorReason, GetArchivedPageResponseSchema, ListArchivedPagesResponseSchema,
  type GetArchivedPageRequest, type ListArchivedPagesRequest,
} from '@retail/contract';
import { ARCHIVED_PAGE_KINDS } from '@retail/contract/page-archive-handoff';
import type { ArchivedPageSummaryRow } from '../store/archived-pages.js';
import type { WatchStore } from '../store/index.js';
import type { ServiceLog } from './deps.js';
import { grpcStatusOf, invalidArgument, toWatchServiceError, WatchServiceError } from './errors.js';
import { marketplaceCodeOf } from './request-checks.js';

export const DEFAULT_PAGE_LIST_LIMIT = 50;
export const MAX_PAGE_LIST_LIMIT = 200;
const MAX_IDENTIFIER_LENGTH = 300;

interface PageKey {
  readonly domain: string;
  readonly kind: string;
  readonly identifier: string;
}

/** The marketplace, kind and identifier of a request, checked: INVALID_ARGUMENT naming the field otherwise. */
function pageKeyOf(request: { marketplace: string; kind: string; identifier: string }): PageKey {
  const domain = marketplaceCodeOf(request.marketplace);
  if (!(ARCHIVED_PAGE_KINDS as readonly string[]).includes(request.kind)) throw invalidArgument(`kind must be one of ${ARCHIVED_PAGE_KINDS.join(', ')}`, 'kind');
  const identifier = request.identifier.trim();
  if (identifier === '' || identifier.length > MAX_IDENTIFIER_LENGTH) throw invalidArgument(`identifier must be 1 to ${MAX_IDENTIFIER_LENGTH} characters`, 'identifier');
  return { domain, kind: request.kind, identifier };
}

function timeOf(timestamp: Timestamp | undefined, fallback: Date, field: string): Date {
  if (!timestamp) return fallback;
  const time = timestampDate(timestamp);
  if (Number.isNaN(time.getTime())) throw invalidArgument(`${field} is not a time`, field);
  return time;
}

function summaryOf(row: ArchivedPageSummaryRow) {
  return create(ArchivedPageSummarySchema, {
    id: row.id, fetchedAt: timestampFromDate(row.fetchedAt), marketplace: row.domain, kind: row.kind, identifier: row.identifier,
    url: row.url, status: row.status, parser: row.parser, reparsedWith: row.reparsedWith ?? '', reason: row.reason,
    missingFields: [...row.missingFields], storedBytes: BigInt(row.storedBytes), recordedAt: timestampFromDate(row.recordedAt),
  });
}

export function archivedPageImplementation(store: Pick<WatchStore, 'pages'>, log?: ServiceLog, now: () => number = Date.now): UntypedServiceImplementation {
  /** One unary handler: the answer, or its failure as the watcher sends failures (unknown ones logged, sent as INTERNAL). */
  const unary = <Request>(rpc: string, answer: (request: Request) => Promise<unknown>) =>
    (call: ServerUnaryCall<Request, unknown>, callback: sendUnaryData<unknown>) => {
      Promise.resolve().then(() => answer(call.request)).then(
        (response) => callback(null, response),
        (error: unknown) => {
          const failure = toWatchServiceError(error);
          if (failure.reason === ErrorReason.INTERNAL) log?.error({ err: error, rpc }, 'call failed');
          callback(grpcStatusOf(failure));
        },
      );
    };

  return {
    [ArchivedPageService.method.getArchivedPage.name]: unary<GetArchivedPageRequest>('GetArchivedPage', async (request) => {
      const key = pageKeyOf(request);
      const row = await store.pages.find({ ...key, at: timeOf(request.at, new Date(now()), 'at') });
      if (!row) throw new WatchServiceError(ErrorReason.NOT_FOUND, `no archived ${key.kind} page of ${key.domain} ${key.identifier}`, ['identifier']);
      const { body, parsed, ...meta } = row;
      return create(GetArchivedPageResponseSchema, {
        page: summaryOf({ ...meta, storedBytes: body.byteLength }),
        // Stored as JSON (jsonb); null when the parser could not read the page.
        parsedJson: parsed === null || parsed === undefined ? '' : JSON.stringify(parsed),
        contentType: row.contentType, encoding: row.encoding, body,
      });
    }),
    [ArchivedPageService.method.listArchivedPages.name]: unary<ListArchivedPagesRequest>('ListArchivedPages', async (request) => {
      const key = pageKeyOf(request);
      if (request.limit < 0 || request.limit > MAX_PAGE_LIST_LIMIT) throw invalidArgument(`limit must be 1 to ${MAX_PAGE_LIST_LIMIT} (0: ${DEFAULT_PAGE_LIST_LIMIT})`, 'limit');
      const to = timeOf(request.to, new Date(now()), 'to');
      const from = request.from ? timeOf(request.from, to, 'from') : undefined;
      if (from && from > to) throw invalidArgument('from must not be after to', 'from');
      const rows = await store.pages.listOf({ ...key, to, ...(from ? { from } : {}), limit: request.limit || DEFAULT_PAGE_LIST_LIMIT });
      return create(ListArchivedPagesResponseSchema, { pages: rows.map(summaryOf) });
    }),
  };
}
