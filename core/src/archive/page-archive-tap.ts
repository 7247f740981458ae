/**
 * The core's side of the page archive: given a fetched page (and what its parser read, or the
 * error it caused), decide by the archive policy, compress, and hand the page to the outbox. It
 * never throws into a call and never delays one: the work runs after the call's own, and a failure
 * is counted and logged, not raised.
 */
import { randomUUID } from 'node:crypto';
import { metrics as otel, type Meter } from '@opentelemetry/api';
import type { ArchiveReason, PageArchiveOutbox } from '@retail/contract/page-archive-handoff';
import type { Logger } from 'pino';
import type { FetchedPage, PageRequest } from '../pages/types.js';
import { archiveReason, missingFields } from './archive-policy.js';
import type { ArchiveHint } from './archive-hint.js';
import { compressPage, type PageEncoding } from './compress-page.js';

export interface PageArchiveTapOptions {
  readonly outbox: PageArchiveOutbox;
  /** PAGE_ARCHIVE_SAMPLE: the share of other pages kept, 0 to 1. */
  readonly sampleRate: number;
  /** Injected in tests (a seeded sequence); Math.random otherwise. */
  readonly random?: () => number;
  readonly encoding?: PageEncoding;
  readonly meter?: Meter;
  readonly logger?: Pick<Logger, 'warn'>;
}

export interface ArchiveInput {
  readonly request: PageRequest;
  readonly parser: { readonly id: string; readonly version: string | number };
  readonly page: FetchedPage;
  readonly hint: ArchiveHint | undefined;
  /** What the parser read; absent when it failed. */
  readonly record?: unknown;
  readonly refused?: 'blocked' | 'unparseable';
}

/** Why a page is kept, and the declared fields its parse lacked (checked once, in `decide`). */
export interface ArchiveVerdict {
  readonly reason: ArchiveReason;
  readonly missing: readonly string[];
}

export interface PageArchiveTap {
  /** The policy's verdict for a page: why it is kept, or undefined. Cheap and synchronous (no compression). */
  decide(input: ArchiveInput): ArchiveVerdict | undefined;
  /** Compresses and hands the page off; never rejects (a failure is counted and logged). */
  keep(input: ArchiveInput, verdict: ArchiveVerdict): Promise<void>;
}

/**
 * What the page was read for, as an admin looks it up: the ASIN of a product, offers or reviews
 * page, the keywords of a search, the seller, the category node, else the path.
 */
export function identifierOf(request: PageRequest): string {
  const asin = /\/(?:dp|gp\/offer-listing|product-reviews)\/([A-Z0-9]{10})/i.exec(request.path)?.[1] ?? request.query?.asin;
  if (asin) return asin.toUpperCase();
  return request.query?.k ?? request.query?.seller ?? request.query?.node ?? request.path;
}

/**
 * The parser as the archive names it, `id@version`. A page-cache reference's version carries the
 * parser's arguments after a ':' (operations/parsed-pages.ts: `3:[["asin","B0…"]]`): part of the
 * cache key, not of the version re-parsing compares.
 */
export function parserName(parser: ArchiveInput['parser']): string {
  return `${parser.id}@${String(parser.version).replace(/:.*$/, '')}`;
}

/** JSON of a record (bigints as strings: ratings totals are int64). */
function recordJson(record: unknown): string | undefined {
  if (record === undefined) return undefined;
  return JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

export function createPageArchiveTap(options: PageArchiveTapOptions): PageArchiveTap {
  const random = options.random ?? Math.random;
  const meter = options.meter ?? otel.getMeter('retail-core');
  const kept = meter.createCounter('retail_page_archive_pages', { description: 'Pages handed to the page archive, by kind and reason' });
  const dropped = meter.createCounter('retail_page_archive_dropped', { description: 'Archived pages dropped unrecorded: the hand-off stream was full (no watcher reading) or could not be written' });

  async function handOff(input: ArchiveInput, { reason, missing }: ArchiveVerdict): Promise<void> {
    const { request, page } = input;
    const encoding = options.encoding ?? 'br';
    const body = await compressPage(page.html, encoding);
    const parsed = recordJson(input.record);
    const result = await options.outbox.add({
      id: randomUUID(),
      url: page.url,
      domain: request.marketplace.code,
      kind: request.kind,
      identifier: identifierOf(request),
      status: page.status,
      fetchedAt: page.retrievedAt,
      parser: parserName(input.parser),
      contentType: page.contentType ?? 'text/html',
      encoding,
      body,
      ...(parsed !== undefined ? { parsed } : {}),
      reason,
      missing: [...missing],
    });
    kept.add(1, { kind: request.kind, reason });
    if (result.dropped) dropped.add(1, { cause: 'full' });
  }

  return {
    decide(input) {
      const missing = input.record === undefined ? [] : missingFields(input.parser.id, input.record);
      const reason = archiveReason({ hint: input.hint, ...(input.refused ? { refused: input.refused } : {}), missing, draw: random(), sampleRate: options.sampleRate });
      return reason ? { reason, missing } : undefined;
    },
    async keep(input, verdict) {
      try {
        await handOff(input, verdict);
      } catch (error) {
        dropped.add(1, { cause: 'error' });
        options.logger?.warn({ err: error, url: input.page.url }, 'page archive: a page could not be handed off');
      }
    },
  };
}
