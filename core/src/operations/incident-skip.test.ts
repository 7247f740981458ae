import { create } from '@bufbuild/protobuf';
import { Domain, ErrorReason, GetProductRequestSchema, SearchProductsRequestSchema, SkipOnIncident } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { isCoreError } from '../errors.js';
import type { IncidentState } from '../health/incident-rules.js';
import { healthyRecord, type IncidentRecord } from '../health/incident-store.js';
import { DATA_INCIDENT_RETRY_AFTER_SECONDS, kindsRead, refuseDuringIncident } from './incident-skip.js';
import { validateRequest } from './validate-request.js';

/** A keeper that knows one incident. */
const incidents = (marketplace: string, kind: string, state: IncidentState, fields: string[]) => ({
  record: (m: string, k: string): IncidentRecord => (m === marketplace && k === kind ? { marketplace, kind, state, fields, since: 1, version: 1 } : healthyRecord(m, k)),
});

const productRequest = (skipOnIncident: SkipOnIncident, key: { asin: string } | { gtin: string } = { asin: 'B0FXTIME01' }) =>
  validateRequest('GetProduct', create(GetProductRequestSchema, { domain: Domain.US, skipOnIncident, ...key }));

function refusal(run: () => void) {
  try {
    run();
  } catch (error) {
    if (isCoreError(error)) return error;
    throw error;
  }
  return undefined;
}

describe('skipOnIncident', () => {
  it('refuses a degraded-skipping call during a degraded incident of a kind it reads, with Retry-After', () => {
    const error = refusal(() => refuseDuringIncident('GetProduct', productRequest(SkipOnIncident.DEGRADED), incidents('US', 'product', 'degraded', ['rating'])));
    expect(error).toMatchObject({ reason: ErrorReason.DATA_INCIDENT, retryAfterSeconds: DATA_INCIDENT_RETRY_AFTER_SECONDS });
    expect(error?.message).toBe(`US product pages are under a degraded data incident: rating; refused as skipOnIncident asked, nothing was charged; retry after ${DATA_INCIDENT_RETRY_AFTER_SECONDS} s`);
  });

  it('lets a major-skipping call through a degraded incident and refuses it during a major one', () => {
    expect(refusal(() => refuseDuringIncident('GetProduct', productRequest(SkipOnIncident.MAJOR), incidents('US', 'product', 'degraded', ['rating'])))).toBeUndefined();
    expect(refusal(() => refuseDuringIncident('GetProduct', productRequest(SkipOnIncident.MAJOR), incidents('US', 'product', 'major', ['price'])))?.reason).toBe(ErrorReason.DATA_INCIDENT);
  });

  it('never refuses a call that did not ask, nor one whose kinds or marketplace are healthy', () => {
    expect(refusal(() => refuseDuringIncident('GetProduct', productRequest(SkipOnIncident.UNSPECIFIED), incidents('US', 'product', 'major', ['price'])))).toBeUndefined();
    expect(refusal(() => refuseDuringIncident('GetProduct', productRequest(SkipOnIncident.DEGRADED), incidents('UK', 'product', 'major', ['price'])))).toBeUndefined();
    expect(refusal(() => refuseDuringIncident('GetProduct', productRequest(SkipOnIncident.DEGRADED), incidents('US', 'search', 'major', ['results'])))).toBeUndefined();
  });

  it('a GTIN lookup also reads search pages, so a search incident refuses it', () => {
    const byGtin = productRequest(SkipOnIncident.DEGRADED, { gtin: '9780306406157' });
    expect(kindsRead('GetProduct', byGtin)).toEqual(['product', 'search']);
    expect(refusal(() => refuseDuringIncident('GetProduct', byGtin, incidents('US', 'search', 'major', ['results'])))?.reason).toBe(ErrorReason.DATA_INCIDENT);
  });

  it('derives the kinds from the parsers field health declares, as the incident marks name them', () => {
    const search = validateRequest('SearchProducts', create(SearchProductsRequestSchema, { searchTerm: 'dogs', skipOnIncident: SkipOnIncident.MAJOR }));
    expect(search.skipOnIncident).toBe(SkipOnIncident.MAJOR);
    expect(kindsRead('SearchProducts', search)).toEqual(['search']);
    expect(kindsRead('GetSeller', search)).toEqual(['seller']);
    expect(kindsRead('GetProductReviews', search)).toEqual(['product/reviews', 'product']);
    expect(kindsRead('GetAutocompleteSuggestions', search)).toEqual([]);
  });
});
