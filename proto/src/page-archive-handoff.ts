/**
 * The page archive's hand-off from the core (which fetched the page) to the watcher (which owns
 * PostgreSQL), declared once for both sides (docs/page-archive.md). In production it is a Redis
 * stream on the core's cache Redis, read by the watchers as one consumer group; in the one-process
 * stack it is the in-memory stream below, shared by the core and the watcher of that process.
 */

export const PAGE_ARCHIVE_STREAM = 'retail:page-archive';
export const PAGE_ARCHIVE_GROUP = 'page-archive-recorders';
/** The stream's bound: past it the oldest unrecorded page is dropped (and counted), never the core slowed. */
export const DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES = 500;

/**
 * The page kinds the core fetches and the archive may hold (the core's PageKind, one parser each),
 * for those who look pages up by kind: the console's operator view offers them, and refuses others.
 * test/console/operator-kinds.test.ts keeps this list equal to the core's.
 */
export const ARCHIVED_PAGE_KINDS = [
  'product', 'offers', 'reviews', 'search', 'autocomplete', 'deals', 'bestsellers', 'bestseller-categories', 'seller', 'author', 'categories', 'category',
] as const;

/** Why a page was kept: the archive policy's verdict. */
export type ArchiveReason = 'watch-refresh' | 'incomplete' | 'blocked' | 'unparseable' | 'sample';

/** One archived page. Never a request header, cookie or session value: only what the marketplace answered. */
export interface ArchivedPage {
  /** A UUID the core gives the page: the watcher records each id once however often it is delivered. */
  readonly id: string;
  readonly url: string;
  /** The marketplace code (US, DE, …). */
  readonly domain: string;
  readonly kind: string;
  /** The ASIN, search keywords, seller id… the page was read for (its path when none of those). */
  readonly identifier: string;
  readonly status: number;
  readonly fetchedAt: Date;
  /** `<parser id>@<version>`. */
  readonly parser: string;
  readonly contentType: string;
  readonly encoding: 'br' | 'gzip';
  /** The page's HTML, compressed with `encoding`. */
  readonly body: Uint8Array;
  /** What the parser read from the page, as JSON (absent when it could not read it). */
  readonly parsed?: string;
  readonly reason: ArchiveReason;
  /** The declared fields the parse did not yield (reason `incomplete`). */
  readonly missing: readonly string[];
}

/** Field names of a stream entry; the body goes as raw bytes. */
export function toStreamFields(page: ArchivedPage): Array<string | Uint8Array> {
  const meta = { ...page, body: undefined, fetchedAt: page.fetchedAt.toISOString() };
  return ['meta', JSON.stringify(meta), 'body', page.body];
}

/** The page of a stream entry's fields (an array of name, value, name, value…); undefined when malformed. */
export function fromStreamFields(fields: ReadonlyArray<string | Uint8Array>): ArchivedPage | undefined {
  const values = new Map<string, string | Uint8Array>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(String(fields[i]), fields[i + 1]!);
  const meta = values.get('meta');
  const body = values.get('body');
  if (meta === undefined || body === undefined || typeof body === 'string') return undefined;
  try {
    const parsed = JSON.parse(String(meta)) as Omit<ArchivedPage, 'fetchedAt' | 'body'> & { fetchedAt: string };
    return { ...parsed, fetchedAt: new Date(parsed.fetchedAt), body };
  } catch {
    return undefined;
  }
}

/** The producing side (the core): adding never waits on a reader; `dropped` when the bound pushed out the oldest page. */
export interface PageArchiveOutbox {
  add(page: ArchivedPage): Promise<{ dropped: boolean }>;
  close(): Promise<void>;
}

export interface InboxEntry {
  readonly entryId: string;
  /** Undefined when the entry was trimmed before it was recorded, or is malformed: acknowledge and move on. */
  readonly page: ArchivedPage | undefined;
}

/**
 * The consuming side (the watcher): `pending` re-reads what this consumer was given and never
 * acknowledged (a crash between recording and acknowledging), otherwise new entries, waiting up to
 * `blockMs` for one. An entry is acknowledged only after it is recorded.
 */
export interface PageArchiveInbox {
  read(options: { readonly pending: boolean; readonly count: number; readonly blockMs: number }): Promise<InboxEntry[]>;
  ack(entryIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
