/**
 * The page archive's rows (migration 0005, docs/page-archive.md): recorded once per page id however
 * often the hand-off delivers it, found by marketplace, kind, identifier and time, and kept
 * `PAGE_ARCHIVE_DAYS` by monthly partitions that retention drops (partitions.ts).
 */
import type { ArchivedPage } from '@retail/contract/page-archive-handoff';
import { monthPartitionsEnsure, type StoreQueryable as Queryable } from './partitions.js';

/** check_violation: the row's month has no partition yet. */
const NO_PARTITION = '23514';

export interface ArchivedPageRow {
  readonly id: string;
  readonly fetchedAt: Date;
  readonly domain: string;
  readonly kind: string;
  readonly identifier: string;
  readonly url: string;
  readonly status: number;
  readonly parser: string;
  readonly contentType: string;
  readonly reason: ArchivedPage['reason'];
  readonly missingFields: string[];
  readonly encoding: ArchivedPage['encoding'];
  readonly body: Uint8Array;
  /** What the parser read, as stored (JSON); null when it could not read the page. */
  readonly parsed: unknown;
  readonly recordedAt: Date;
  /** The parser that last read the page again (re-parsing, migration 0006); absent when none did. */
  readonly reparsedWith?: string;
}

/** An archived page without its body: what a list of pages shows (the operator view). */
export type ArchivedPageSummaryRow = Omit<ArchivedPageRow, 'body' | 'parsed'> & { readonly storedBytes: number };

/** The pages of one identifier in a window, newest first. */
export interface PageListQuery {
  readonly domain: string;
  readonly kind: string;
  readonly identifier: string;
  readonly from?: Date;
  /** Inclusive. */
  readonly to: Date;
  readonly limit: number;
}

export interface PageLookup {
  readonly domain: string;
  readonly kind: string;
  readonly identifier: string;
  /** The page fetched last at or before this time (or, when none, the first after it). */
  readonly at: Date;
}

const COLUMNS = `id, fetched_at AS "fetchedAt", domain, kind, identifier, url, status, parser, content_type AS "contentType", reason,
  missing_fields AS "missingFields", encoding, body, parsed, recorded_at AS "recordedAt", reparsed_with AS "reparsedWith"`;

const SUMMARY_COLUMNS = `id, fetched_at AS "fetchedAt", domain, kind, identifier, url, status, parser, content_type AS "contentType", reason,
  missing_fields AS "missingFields", encoding, octet_length(body)::int AS "storedBytes", recorded_at AS "recordedAt", reparsed_with AS "reparsedWith"`;

/**
 * The parser a page was last read with, as `id@version`. Pages archived before the core named
 * parsers that way carry the page cache's key (`product-page@3:[["asin","B0…"]]`), whose tail is
 * the parser's arguments, not its version.
 */
export function parserOfPage(page: Pick<ArchivedPageRow, 'parser' | 'reparsedWith'>): string {
  return (page.reparsedWith ?? page.parser).replace(/:.*$/, '');
}

/** A row as the model reads it: no re-read mark rather than a null one. */
function withoutNulls<Row extends { readonly reparsedWith?: string }>(row: Row): Row {
  // The column is NULL where no re-parse happened; the type says absent.
  const { reparsedWith, ...rest } = row as Row & { reparsedWith?: string | null };
  return (reparsedWith ? { ...rest, reparsedWith } : rest) as Row;
}

export function createArchivedPageRepository(db: Queryable) {
  const insert = (page: ArchivedPage) =>
    db.query<{ id: string }>(
      `INSERT INTO archived_pages (id, fetched_at, domain, kind, identifier, url, status, parser, content_type, reason, missing_fields, encoding, body, parsed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb)
       ON CONFLICT (id, fetched_at) DO NOTHING RETURNING id`,
      [page.id, page.fetchedAt, page.domain, page.kind, page.identifier, page.url, page.status, page.parser, page.contentType,
        page.reason, [...page.missing], page.encoding, page.body, page.parsed ?? null],
    );

  return {
    /** Records a page; false when its id was recorded before (a redelivery). Creates its month's partition when missing. */
    async record(page: ArchivedPage): Promise<boolean> {
      const rows = await insert(page).catch(async (error: { code?: string }) => {
        if (error.code !== NO_PARTITION) throw error;
        await monthPartitionsEnsure(db, 'archived_pages', page.fetchedAt, 1);
        return insert(page);
      });
      return rows.length === 1;
    },

    async find(lookup: PageLookup): Promise<ArchivedPageRow | undefined> {
      const key = [lookup.domain, lookup.kind, lookup.identifier, lookup.at];
      const where = `domain = $1 AND kind = $2 AND identifier = $3`;
      const [before] = await db.query<ArchivedPageRow>(`SELECT ${COLUMNS} FROM archived_pages WHERE ${where} AND fetched_at <= $4 ORDER BY fetched_at DESC LIMIT 1`, key);
      if (before) return withoutNulls(before);
      const [after] = await db.query<ArchivedPageRow>(`SELECT ${COLUMNS} FROM archived_pages WHERE ${where} AND fetched_at > $4 ORDER BY fetched_at LIMIT 1`, key);
      return after && withoutNulls(after);
    },

    /**
     * The pages of a kind in a marketplace fetched from `since` on, oldest first, `limit` at a time:
     * pass the last page's (fetchedAt, id) as `after` for the next batch. What re-parsing (issue 23
     * part 6) walks; bodies included.
     */
    async listSince(query: { domain: string; kind: string; since: Date; until?: Date; after?: { fetchedAt: Date; id: string }; limit: number }): Promise<ArchivedPageRow[]> {
      const after = query.after ?? { fetchedAt: query.since, id: '00000000-0000-0000-0000-000000000000' };
      const rows = await db.query<ArchivedPageRow & { reparsedWith: string | null }>(
        `SELECT ${COLUMNS} FROM archived_pages WHERE domain = $1 AND kind = $2 AND fetched_at >= $3 AND (fetched_at, id) > ($4, $5::uuid)
           AND ($7::timestamptz IS NULL OR fetched_at < $7)
         ORDER BY fetched_at, id LIMIT $6`,
        [query.domain, query.kind, query.since, after.fetchedAt, after.id, query.limit, query.until ?? null],
      );
      return rows.map(withoutNulls);
    },

    /** The pages of one identifier fetched in [from, to], newest first, without bodies (their stored size instead). */
    async listOf(query: PageListQuery): Promise<ArchivedPageSummaryRow[]> {
      const rows = await db.query<ArchivedPageSummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM archived_pages
         WHERE domain = $1 AND kind = $2 AND identifier = $3 AND fetched_at <= $4 AND ($5::timestamptz IS NULL OR fetched_at >= $5)
         ORDER BY fetched_at DESC, id DESC LIMIT $6`,
        [query.domain, query.kind, query.identifier, query.to, query.from ?? null, query.limit],
      );
      return rows.map(withoutNulls);
    },

    async count(): Promise<number> {
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM archived_pages`);
      return row!.n;
    },
  };
}

export type ArchivedPageRepository = ReturnType<typeof createArchivedPageRepository>;
