import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One entry of a corpus `index.json` (../shared/corpus/README.md, Layout). */
export interface CorpusEntry {
  readonly id: string;
  readonly operation: string;
  readonly domain: string;
  readonly url: string;
  readonly aliases?: readonly string[];
  readonly status: number;
  readonly page: string;
  readonly golden?: string;
  readonly request?: Record<string, unknown>;
  readonly captured?: string;
  readonly source?: string;
  /** Set by the project's own fixtures: measured only on pages the project wrote. */
  readonly unverified?: boolean;
}

/** A URL an entry answers, split the way the matching rule compares it. */
export interface ReplayRoute {
  readonly host: string;
  readonly path: string;
  readonly params: ReadonlyArray<readonly [string, string]>;
  readonly entry: CorpusEntry;
  /** Absolute path of the page file. */
  readonly file: string;
}

/** Host as compared by the matching rule: lower case, port and a leading `www.` removed. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/^www\./, '');
}

/** Path as compared by the matching rule: percent-decoded, without a trailing `/` (root stays `/`). */
export function normalizePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape is compared as written; it simply matches nothing.
  }
  const trimmed = decoded.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The entries of `<dir>/index.json`, in file order. */
export function loadCorpusEntries(dir: string): CorpusEntry[] {
  return JSON.parse(readFileSync(join(resolve(dir), 'index.json'), 'utf8')) as CorpusEntry[];
}

/** Reads `<dir>/index.json` and lists every URL (canonical and aliases) each entry answers. */
export function loadCorpusRoutes(dir: string): ReplayRoute[] {
  const root = resolve(dir);
  const routes: ReplayRoute[] = [];
  for (const entry of loadCorpusEntries(root)) {
    for (const url of [entry.url, ...(entry.aliases ?? [])]) {
      const parsed = new URL(url);
      routes.push({
        host: normalizeHost(parsed.host),
        path: normalizePath(parsed.pathname),
        params: [...parsed.searchParams.entries()],
        entry,
        file: join(root, entry.page),
      });
    }
  }
  return routes;
}

/**
 * The matching rule of the corpus README: same host (ignoring `www.`), same path (ignoring a
 * trailing `/`), every parameter of the entry present in the request with the same value; among
 * several, the one naming the most parameters wins (the first listed on a tie).
 */
export function matchRoute(
  routes: readonly ReplayRoute[],
  host: string,
  path: string,
  query: URLSearchParams,
): ReplayRoute | undefined {
  const wantHost = normalizeHost(host);
  const wantPath = normalizePath(path);
  let best: ReplayRoute | undefined;
  for (const route of routes) {
    if (route.host !== wantHost || route.path !== wantPath) continue;
    if (!route.params.every(([k, v]) => query.getAll(k).includes(v))) continue;
    if (!best || route.params.length > best.params.length) best = route;
  }
  return best;
}
