/**
 * What the console's operator view needs from the watcher's page archive
 * (retail.v1.ArchivedPageService, proto/retail/v1/page_archive.proto): one page of a marketplace,
 * kind and identifier at a time, with what the parser read and the page itself, and the pages of an
 * identifier in a window. The composition passes the implementation in (createClientArchiveApi over
 * the gateways' gRPC client, as for watches); tests may pass their own.
 *
 * A failure the operator should see rejects with a ConsoleError (errors.ts): 501 without a watcher
 * address, 503 when the watcher does not answer.
 */

export interface ArchivedPageQuery {
  /** Marketplace code ("US"). */
  readonly marketplace: string;
  readonly kind: string;
  readonly identifier: string;
  /** The page fetched last at or before this time (the first after it when none before); default now. */
  readonly at?: Date;
}

export interface ArchivedPageListQuery {
  readonly marketplace: string;
  readonly kind: string;
  readonly identifier: string;
  /** Oldest fetch to list; none: no lower bound. */
  readonly from?: Date;
  /** Newest fetch to list (inclusive); none: now. */
  readonly to?: Date;
  /** At most this many (the watcher's default 50, at most 200). */
  readonly limit?: number;
}

/** An archived page without its body, as the console's API answers it (JSON). */
export interface ArchivedPageInfo {
  readonly id: string;
  /** ISO 8601. */
  readonly fetchedAt: string;
  readonly marketplace: string;
  readonly kind: string;
  readonly identifier: string;
  readonly url: string;
  readonly status: number;
  /** The parser that read it when it was fetched ("product-page@3"). */
  readonly parser: string;
  /** The parser that read it last when re-parsing did; null when none did. */
  readonly reparsedWith: string | null;
  /** Why it was kept (watch-refresh, incomplete, blocked, unparseable, sample). */
  readonly reason: string;
  readonly missingFields: string[];
  /** The archived (compressed) size in bytes. */
  readonly storedBytes: number;
}

export interface ArchivedPageFound {
  readonly page: ArchivedPageInfo;
  /** What the parser read when the page was fetched (JSON value); null when it could not read it. */
  readonly parsed: unknown;
  /** As the marketplace sent it. */
  readonly contentType: string;
  /** The page, decompressed (UTF-8 text). */
  readonly html: string;
}

export interface ArchiveApi {
  /** Undefined when the archive holds no page of that identifier. */
  findPage(query: ArchivedPageQuery): Promise<ArchivedPageFound | undefined>;
  /** Newest first. */
  listPages(query: ArchivedPageListQuery): Promise<ArchivedPageInfo[]>;
}
