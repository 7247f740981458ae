/**
 * Builds the demo catalogue from the replay server's recordings (one source: what the server
 * answers is what the catalogue lists). Each recording answers the operation it is filed under. A
 * product page the project wrote is complete (buy box, best-sellers rank, GTIN row), so it also
 * answers what is computed from the product page alone (PRODUCT_PAGE_RPCS); a real corpus page is
 * listed only for what it was recorded for (older pages lack a buy box, and the stock estimate
 * rightly answers 502 on them).
 * Recordings whose request is not a request of that operation are supporting pages (a GTIN search's
 * candidate product pages) and are not listed; blocked and error pages are listed as error examples.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_REGISTRY, type Operation } from '@retail/gateway-shared';
import type { CatalogueEntry, CatalogueErrorExample, CatalogueSource, DemoCatalogue } from '../../app/src/demo-catalogue/model.js';
import { PRODUCT_PAGE_RPCS, RPC_OF_OPERATION, SERVED_DOMAINS } from './recorded-operations.js';
import type { Recording } from './server.js';

const OPERATION_OF_METHOD = new Map(API_REGISTRY.map((op) => [op.method.localName, op]));
const MARKETPLACES = [...SERVED_DOMAINS];

/** The REST query of a recording: its request, every value a string, `domain` always named. */
function queryOf(recording: Recording): Record<string, string> {
  const request = recording.entry.request ?? {};
  const query = Object.fromEntries(Object.entries(request).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
  return { ...query, domain: recording.entry.domain };
}

/** Whether the query names only parameters of the operation and every one it requires. */
function fits(op: Operation, query: Record<string, string>): boolean {
  const names = new Set(op.parameters.map((p) => p.name));
  return Object.keys(query).every((k) => names.has(k)) && op.parameters.every((p) => !p.required || query[p.name] !== undefined);
}

/** The status a blocked or error recording answers with, from its golden; undefined when it expects data. */
function expectedErrorStatus({ entry, dir }: Recording): number | undefined {
  const golden = entry.golden ? join(dir, 'golden', entry.golden) : undefined;
  if (!golden || !existsSync(golden)) return undefined;
  return (JSON.parse(readFileSync(golden, 'utf8')) as { expectError?: { status?: number } }).expectError?.status;
}

const sourceOf = (recording: Recording): CatalogueSource =>
  recording.entry.source?.startsWith('written by the project') ? 'project fixture' : 'recorded page';

const keyOf = (e: CatalogueEntry) => `${e.operation} ${JSON.stringify(Object.entries(e.query).sort())}`;

/** Marketplace order, then the registry's operation order, project fixtures first, then the identifier. */
function byCatalogueOrder(a: CatalogueEntry, b: CatalogueEntry): number {
  const rank = (e: CatalogueEntry) => [MARKETPLACES.indexOf(e.domain), API_REGISTRY.findIndex((op) => op.name === e.operation), e.source === 'project fixture' ? 0 : 1];
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
  return JSON.stringify(a.query).localeCompare(JSON.stringify(b.query));
}

export interface CatalogueOptions {
  /**
   * Whether the core has a marketplace session (REVIEWS_SESSION_COOKIE). Without one, reviews are a
   * product page's top reviews and review-list recordings cannot be asked for; with one, reviews need
   * the review list, so only review-list recordings answer them.
   */
  readonly reviewsSession: boolean;
}

/**
 * Whether a reviews recording answers GetProductReviews in this demo: a review list page
 * (`/product-reviews/ASIN`) only with a marketplace session, a product page with top reviews only
 * without one. The project's other product pages hold no reviews, so they are not listed for reviews:
 * the catalogue lists requests that answer with something to see, not empty lists.
 */
function answersReviews(recording: Recording, reviewsSession: boolean): boolean {
  return /\/product-reviews\//.test(recording.entry.url) === reviewsSession;
}

export function buildDemoCatalogue(recordings: readonly Recording[], sources: readonly string[], options: CatalogueOptions): DemoCatalogue {
  const entries = new Map<string, CatalogueEntry>();
  const errors = new Map<string, CatalogueErrorExample>();
  for (const recording of recordings) {
    const { entry } = recording;
    const method = RPC_OF_OPERATION[entry.operation];
    if (!method || !SERVED_DOMAINS.has(entry.domain) || !entry.request) continue;
    if (entry.operation === 'reviews' && !answersReviews(recording, options.reviewsSession)) continue;
    const query = queryOf(recording);
    const errorStatus = expectedErrorStatus(recording);
    const complete = errorStatus === undefined && entry.operation === 'product' && sourceOf(recording) === 'project fixture';
    const methods = complete ? [method, ...PRODUCT_PAGE_RPCS] : [method];
    for (const name of methods) {
      const op = OPERATION_OF_METHOD.get(name);
      if (!op || !fits(op, query)) continue;
      const listed: CatalogueEntry = { domain: entry.domain, operation: op.name, operationId: op.operationId, path: op.restPath, query, source: sourceOf(recording), recording: entry.id };
      if (errorStatus !== undefined) {
        if (!errors.has(keyOf(listed))) errors.set(keyOf(listed), { ...listed, status: errorStatus });
      } else if (entry.status === 200 && !entries.has(keyOf(listed))) {
        entries.set(keyOf(listed), listed);
      }
    }
  }
  return {
    marketplaces: MARKETPLACES,
    entries: [...entries.values()].sort(byCatalogueOrder),
    errors: [...errors.values()].sort(byCatalogueOrder),
    sources,
  };
}
