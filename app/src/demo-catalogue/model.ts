/**
 * The demo catalogue: every identifier the demo's recorded pages can answer, per marketplace and
 * operation. It is derived from the replay server's recordings (test/replay/catalogue.ts builds it);
 * the stack only serves it. Links and curl lines are made here, from the address the client used.
 */

/** Where an answer comes from: a page the project wrote, or a real page of the corpus (RETAIL_CORPUS). */
export type CatalogueSource = 'project fixture' | 'recorded page';

/** One request the demo answers. */
export interface CatalogueEntry {
  /** Marketplace code ('DE'). */
  readonly domain: string;
  /** RPC name ('GetProduct') and the REST operationId of the OpenAPI document. */
  readonly operation: string;
  readonly operationId: string;
  /** REST path ('/api/retail/product'). */
  readonly path: string;
  /** The query that asks for it, `domain` included. */
  readonly query: Readonly<Record<string, string>>;
  readonly source: CatalogueSource;
  /** Id of the recording behind it. */
  readonly recording: string;
}

/** A request the demo answers with an error on purpose (a blocked or missing page). */
export interface CatalogueErrorExample extends CatalogueEntry {
  /** The HTTP status the service answers with. */
  readonly status: number;
}

export interface DemoCatalogue {
  /** Marketplace codes in the order of the Domain enum (all 13, whether recorded or not). */
  readonly marketplaces: readonly string[];
  readonly entries: readonly CatalogueEntry[];
  readonly errors: readonly CatalogueErrorExample[];
  /** What the replay server was started with ('project fixtures', 'corpus at …'). */
  readonly sources: readonly string[];
}

/** The parameters that identify an entry ('asin=B0…'), `domain` left out. */
export function identifierOf(entry: CatalogueEntry): string {
  return Object.entries(entry.query).filter(([k]) => k !== 'domain').map(([k, v]) => `${k}=${v}`).join(' ');
}

/** The REST URL of an entry under `base` (an origin, or '' for a relative link). */
export function urlOf(entry: CatalogueEntry, base: string): string {
  return `${base}${entry.path}?${new URLSearchParams(entry.query).toString()}`;
}

/** A curl line that calls the entry with the key in $KEY (URLSearchParams never leaves a quote in it). */
export function curlOf(entry: CatalogueEntry, base: string): string {
  return `curl -s -H "API-KEY: $KEY" '${urlOf(entry, base)}'`;
}

/** Identifiers per marketplace and operation: counts[domain][operation]. */
export function countsOf(catalogue: DemoCatalogue): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = Object.fromEntries(catalogue.marketplaces.map((m) => [m, {}]));
  for (const e of catalogue.entries) {
    const row = (counts[e.domain] ??= {});
    row[e.operation] = (row[e.operation] ?? 0) + 1;
  }
  return counts;
}

/** The JSON document served at DEMO_CATALOGUE_JSON_PATH. */
export function catalogueDocument(catalogue: DemoCatalogue, base: string) {
  const withLinks = <E extends CatalogueEntry>(e: E) => ({ ...e, identifier: identifierOf(e), url: urlOf(e, base), curl: curlOf(e, base) });
  return {
    demo: true,
    description:
      'Every request the demo can answer from its recorded marketplace pages; anything else answers 404 "no such product". ' +
      'Send the development key printed by `npm run demo` as the API-KEY header.',
    sources: catalogue.sources,
    counts: countsOf(catalogue),
    entries: catalogue.entries.map(withLinks),
    errors: catalogue.errors.map(withLinks),
  };
}
