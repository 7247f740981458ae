/**
 * The ArchiveApi over the gateways' backend client (@retail/gateway-shared), which routes
 * retail.v1.ArchivedPageService to the watcher (WATCHER_ADDRESS) with the service token, as the
 * status page calls DataIncidentService. No account: operators are not customers, nothing is
 * charged. The page arrives compressed as archived (br or gzip) and leaves decompressed.
 */
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { ArchivedPageService, type ArchivedPageSummary } from '@retail/contract';
import type { CoreClient } from '@retail/gateway-shared/core-client';
import { mapCoreError } from '@retail/gateway-shared/errors';
import type { ArchiveApi, ArchivedPageInfo } from './archive-api.js';
import { ConsoleError } from './errors.js';

const DECOMPRESS: Record<string, (body: Uint8Array) => Promise<Buffer>> = { br: promisify(brotliDecompress), gzip: promisify(gunzip) };

export interface ClientArchiveApiOptions {
  /** The client with a WATCHER_ADDRESS (without one, every call answers 501). */
  readonly client: Pick<CoreClient, 'unaryCall'>;
}

const isoOf = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : '');

export function pageInfo(page: ArchivedPageSummary): ArchivedPageInfo {
  return {
    id: page.id,
    fetchedAt: isoOf(page.fetchedAt),
    marketplace: page.marketplace,
    kind: page.kind,
    identifier: page.identifier,
    url: page.url,
    status: page.status,
    parser: page.parser,
    reparsedWith: page.reparsedWith || null,
    reason: page.reason,
    missingFields: [...page.missingFields],
    storedBytes: Number(page.storedBytes),
  };
}

/** What the watcher stored as JSON text, as a value; text that is not JSON stays text. */
function parsedValue(json: string): unknown {
  if (json === '') return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** The watcher's refusal as the console's error: its client-facing status and message. */
function consoleErrorOf(error: unknown): ConsoleError {
  const mapped = mapCoreError(error, undefined, 'mcp');
  return new ConsoleError(mapped.status, mapped.message, {
    ...(mapped.path ? { path: mapped.path } : {}),
    ...(mapped.retryAfterSeconds !== undefined ? { retryAfterSeconds: mapped.retryAfterSeconds } : {}),
    cause: error,
  });
}

export function createClientArchiveApi({ client }: ClientArchiveApiOptions): ArchiveApi {
  return {
    async findPage(query) {
      let found;
      try {
        found = await client.unaryCall(
          ArchivedPageService.method.getArchivedPage,
          { marketplace: query.marketplace, kind: query.kind, identifier: query.identifier, ...(query.at ? { at: timestampFromDate(query.at) } : {}) },
          { requestId: randomUUID() },
        );
      } catch (error) {
        if (ConnectError.from(error).code === Code.NotFound) return undefined;
        throw consoleErrorOf(error);
      }
      if (!found.page) throw new ConsoleError(500, 'The watcher answered without the page', { cause: found });
      const decompress = DECOMPRESS[found.encoding];
      if (!decompress) throw new ConsoleError(500, 'The archived page has an unknown encoding', { cause: found.encoding });
      const html = (await decompress(found.body)).toString('utf8');
      return { page: pageInfo(found.page), parsed: parsedValue(found.parsedJson), contentType: found.contentType, html };
    },
    async listPages(query) {
      try {
        const listed = await client.unaryCall(
          ArchivedPageService.method.listArchivedPages,
          {
            marketplace: query.marketplace,
            kind: query.kind,
            identifier: query.identifier,
            ...(query.from ? { from: timestampFromDate(query.from) } : {}),
            ...(query.to ? { to: timestampFromDate(query.to) } : {}),
            ...(query.limit ? { limit: query.limit } : {}),
          },
          { requestId: randomUUID() },
        );
        return listed.pages.map(pageInfo);
      } catch (error) {
        throw consoleErrorOf(error);
      }
    },
  };
}
