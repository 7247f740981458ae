/**
 * `npm run admin -- pages`: finds an archived page (docs/page-archive.md) by marketplace, kind,
 * identifier and time, prints what was kept about it and what the parser read from it, and with
 * `--html FILE` writes the page itself. Reads the watcher's database (DATABASE_URL, else the PGlite
 * directory, which only one process may open), or, with `--watcher host:port` or WATCHER_ADDRESS
 * (and SERVICE_TOKEN), asks the running watcher (pages-remote.ts): the way to look while `npm start` runs.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createWatchStore, openDatabase, storeSettingsFromEnv } from '../store/index.js';
import type { ArchivedPageRow, PageLookup } from '../store/archived-pages.js';
import { findPageRemotely } from './pages-remote.js';
import { GrpcCode } from '@retail/contract';
import { EXIT, linkFailureOf, openWatcherLink, UsageError, WatcherCallError, watcherTargetOf, type WatcherTarget } from './watcher-link.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const PAGES_USAGE = `usage: npm run --silent admin -- pages --domain US --kind product (--asin ASIN | --id IDENTIFIER) [--at ISO-TIME] [--html FILE] [--watcher HOST:PORT]
  the archived page fetched last at or before --at (default now; the first after it when none before):
  its URL, status, fetch time, parser version, why it was kept, and the record the parser read
  --watcher (or WATCHER_ADDRESS, with SERVICE_TOKEN): ask the running watcher (npm start's "gRPC watcher"
  and "Service token") instead of opening its database; exit 4 when it does not answer`;

export function pageLookupOf(argv: string[], now: Date): PageLookup & { readonly html?: string } {
  const { values } = parseArgs({
    args: argv,
    options: { domain: { type: 'string' }, kind: { type: 'string' }, asin: { type: 'string' }, id: { type: 'string' }, at: { type: 'string' }, html: { type: 'string' } },
  });
  const identifier = values.asin?.toUpperCase() ?? values.id;
  if (!values.domain || !values.kind || !identifier) throw new UsageError('--domain, --kind and --asin (or --id) are required');
  // `2026-11-28T10:00Z` (no seconds) is what operators type; Date.parse accepts it.
  const at = values.at === undefined ? now : new Date(values.at);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--at must be a time (ISO 8601), got ${JSON.stringify(values.at)}`);
  return { domain: values.domain.toUpperCase(), kind: values.kind, identifier, at, ...(values.html ? { html: values.html } : {}) };
}

export function pageHtml(row: Pick<ArchivedPageRow, 'body' | 'encoding'>): string {
  return (row.encoding === 'br' ? brotliDecompressSync(row.body) : gunzipSync(row.body)).toString('utf8');
}

function describe(row: ArchivedPageRow) {
  const { body, parsed, ...meta } = row;
  // null when no re-parse read the page (the store's answer; the watcher's leaves it out).
  return { ...meta, reparsedWith: row.reparsedWith ?? null, fetchedAt: row.fetchedAt.toISOString(), recordedAt: row.recordedAt.toISOString(), compressedBytes: body.byteLength, parsed };
}

export async function runPagesCommand(argv: string[], env: NodeJS.ProcessEnv, io: CliIo, now = new Date()): Promise<number> {
  let lookup;
  let target: WatcherTarget | undefined;
  try {
    const parsed = watcherTargetOf(argv, env);
    target = parsed.target;
    lookup = pageLookupOf(parsed.argv, now);
  } catch (error) {
    io.err(`${(error as Error).message}\n${PAGES_USAGE}`);
    return EXIT.usage;
  }
  if (target) {
    const link = openWatcherLink(target);
    try {
      return await printPage(await findPageRemotely(link, lookup), lookup, io);
    } catch (error) {
      const failure = linkFailureOf(error, link.address);
      if (failure) {
        io.err(failure.line);
        return failure.code;
      }
      if (!(error instanceof WatcherCallError)) throw error;
      // The watcher's refusal of the lookup (an unknown marketplace): its message names the field.
      io.err(error.message);
      return error.code === GrpcCode.INVALID_ARGUMENT ? EXIT.usage : EXIT.failed;
    } finally {
      link.close();
    }
  }
  const db = await openDatabase(storeSettingsFromEnv(env));
  try {
    return await printPage(await createWatchStore(db).pages.find(lookup), lookup, io);
  } finally {
    await db.close();
  }
}

async function printPage(row: ArchivedPageRow | undefined, lookup: ReturnType<typeof pageLookupOf>, io: CliIo): Promise<number> {
  if (!row) {
    io.err(`no archived ${lookup.kind} page for ${lookup.domain} ${lookup.identifier}`);
    return EXIT.failed;
  }
  io.out(JSON.stringify(describe(row), null, 2));
  if (lookup.html) {
    await writeFile(lookup.html, pageHtml(row));
    io.err(`page written to ${lookup.html}`);
  }
  return EXIT.ok;
}
