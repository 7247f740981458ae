/**
 * `pages` through a running watcher's ArchivedPageService (watcher-link.ts): the page as the watcher
 * answers it, turned back into the archive's row so that the command prints (and with --html writes)
 * exactly what the direct path does (pages-command.ts).
 */
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ArchivedPageService, GrpcCode, type GetArchivedPageResponse } from '@retail/contract';
import type { ArchivedPageRow, PageLookup } from '../store/archived-pages.js';
import { WatcherCallError, type WatcherLink } from './watcher-link.js';

/** The watcher's answer as the row the direct path reads (the same keys in the same order). */
export function rowOfAnswer(answer: GetArchivedPageResponse): ArchivedPageRow {
  const page = answer.page!;
  return {
    id: page.id, fetchedAt: timestampDate(page.fetchedAt!), domain: page.marketplace, kind: page.kind, identifier: page.identifier, url: page.url,
    status: page.status, parser: page.parser, contentType: answer.contentType, reason: page.reason as ArchivedPageRow['reason'], missingFields: [...page.missingFields],
    encoding: answer.encoding as ArchivedPageRow['encoding'], body: answer.body, parsed: answer.parsedJson === '' ? null : JSON.parse(answer.parsedJson),
    recordedAt: page.recordedAt ? timestampDate(page.recordedAt) : timestampDate(page.fetchedAt!),
    ...(page.reparsedWith ? { reparsedWith: page.reparsedWith } : {}),
  };
}

/** The page, or undefined when the watcher keeps none for the lookup (NOT_FOUND). */
export async function findPageRemotely(link: WatcherLink, lookup: PageLookup): Promise<ArchivedPageRow | undefined> {
  try {
    const answer = await link.call(ArchivedPageService.method.getArchivedPage, {
      marketplace: lookup.domain, kind: lookup.kind, identifier: lookup.identifier, at: timestampFromDate(lookup.at),
    });
    return rowOfAnswer(answer);
  } catch (error) {
    if (error instanceof WatcherCallError && error.code === GrpcCode.NOT_FOUND) return undefined;
    throw error;
  }
}
