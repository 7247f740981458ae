import { ErrorReason, SkipOnIncident, withRetryAfter } from '@retail/contract';
import { CoreError } from '../errors.js';
import { FIELD_HEALTH } from '../health/field-declarations.js';
import type { IncidentKeeper } from '../health/incident-keeper.js';
import { worstIncident } from '../health/incident-marks.js';
import { atLeast, type IncidentState } from '../health/incident-rules.js';
import type { ParserId } from '../workers/parser-registry.js';
import type { RpcName } from './operation.js';

/*
 * skipOnIncident (docs/data-health.md): a lookup that asked for it refuses itself, before any page
 * is read, while a page kind it reads is under an incident of that severity in its marketplace.
 * The kinds come from the same declarations as the X-Data-Incident marks (the parsers' FIELD_HEALTH
 * kinds): the marks name what a call did read, this table what it may read, so it can be decided
 * before reading. The runner logs an error should a handler read a kind its entry does not declare.
 */

/** The parsers each operation's pages go through (a GTIN lookup key adds GTIN_RESOLUTION). */
export const OPERATION_PARSERS: { readonly [K in RpcName]: readonly ParserId[] } = {
  GetProduct: ['product-page'],
  GetAsinFromGtin: ['search-page', 'product-page'],
  GetGtinFromAsin: ['product-page'],
  GetProductVariants: ['product-page'],
  GetProductOffers: ['offers-page'],
  GetProductReviews: ['reviews-page', 'product-page'],
  GetStockEstimate: ['product-page'],
  GetSalesEstimate: ['product-page'],
  SearchProducts: ['search-page'],
  // The suggestion feed is JSON, not a layout: never measured, never under incident (and its request has no skipOnIncident).
  GetAutocompleteSuggestions: [],
  GetDeals: ['deals-page'],
  GetBestSellers: ['bestsellers'],
  GetBestSellerCategories: ['bestseller-categories'],
  GetSeller: ['seller-storefront', 'seller-profile'],
  GetAuthor: ['author'],
  GetCategoryTaxonomy: ['categories'],
  GetCategory: ['category'],
};

/** A GTIN key is resolved by a search and a candidate's product page (product-lookup.ts). */
const GTIN_RESOLUTION: readonly ParserId[] = ['search-page', 'product-page'];

const kindsOf = (parsers: readonly ParserId[]): string[] => [...new Set(parsers.flatMap((p) => FIELD_HEALTH[p]?.kind ?? []))];

const DECLARED_KINDS = new Map(Object.entries(OPERATION_PARSERS).map(([rpc, parsers]) => [rpc, kindsOf(parsers)]));
const GTIN_KINDS = kindsOf(GTIN_RESOLUTION);

/** The page kinds (as /api/status names them) a validated request of `rpc` may read. */
export function kindsRead(rpc: RpcName, request: { readonly marketplace: unknown; readonly lookup?: { readonly kind: string } }): readonly string[] {
  const declared = DECLARED_KINDS.get(rpc) ?? [];
  return request.lookup?.kind === 'gtin' ? [...new Set([...declared, ...GTIN_KINDS])] : declared;
}

/**
 * How long a refused caller should wait. An incident closes only once about 16 of the last 20 parses
 * of its kind are healthy again (incident-rules.ts), and refused calls read nothing, so the state
 * cannot move faster than other traffic parses pages: retrying sooner than this mostly spends the
 * caller's rate limit on refusals. It is longer than the 5 s in which every replica learns a change.
 */
export const DATA_INCIDENT_RETRY_AFTER_SECONDS = 30;

const THRESHOLD: Partial<Record<SkipOnIncident, IncidentState>> = {
  [SkipOnIncident.DEGRADED]: 'degraded',
  [SkipOnIncident.MAJOR]: 'major',
};

/** What a request asked for: the request message's `skipOnIncident`, carried past the normalizer. */
export interface IncidentPreference {
  readonly skipOnIncident?: SkipOnIncident;
}

/** Throws DATA_INCIDENT (503, Retry-After, uncharged) when the request asked to skip an open incident it would read. */
export function refuseDuringIncident(
  rpc: RpcName,
  request: IncidentPreference & { readonly marketplace: { readonly code: string }; readonly lookup?: { readonly kind: string } },
  incidents: Pick<IncidentKeeper, 'record'> | undefined,
): void {
  const threshold = request.skipOnIncident === undefined ? undefined : THRESHOLD[request.skipOnIncident];
  if (!threshold || !incidents) return;
  const incident = worstIncident(incidents, request.marketplace.code, kindsRead(rpc, request));
  if (!incident || !atLeast(incident.state, threshold)) return;
  const fields = incident.fields.length > 0 ? `: ${incident.fields.join(', ')}` : '';
  const message = `${request.marketplace.code} ${incident.kind} pages are under a ${incident.state} data incident${fields}; refused as skipOnIncident asked, nothing was charged`;
  throw new CoreError(ErrorReason.DATA_INCIDENT, withRetryAfter(message, DATA_INCIDENT_RETRY_AFTER_SECONDS), { retryAfterSeconds: DATA_INCIDENT_RETRY_AFTER_SECONDS });
}
