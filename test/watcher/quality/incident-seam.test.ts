/**
 * Where data incidents (issue 23, sections 1–3) reach the watcher: the core's field names
 * under incident become snapshot fields, and those are unknown whatever the page showed. The refresh
 * itself is tested with an injected incident set in test/watcher/refresh/quality-marks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { unknownFieldsOf } from '../../../watcher/src/quality/expected-fields.js';
import { incidentFieldsOf, snapshotFieldsOf } from '../../../watcher/src/refresh/incident-fields.js';

const listed = { price: { value: 10, currency: 'USD' }, isInStock: true, buyboxSellerId: 'A1', rating: 4.4, ratingsTotal: 20 };

describe('the data-incident seam', () => {
  it('maps the core field names of an incident onto the snapshot fields they feed, ignoring names it does not track', () => {
    expect(snapshotFieldsOf(['price', 'isInStock', 'seller', 'title', 'price'])).toEqual(['price', 'isInStock', 'buyboxSellerId']);
    expect(incidentFieldsOf({ cache: 'MISS', dataIncident: { state: 'degraded', kind: 'product', fields: ['rating', 'ratingsTotal', 'brand'] } }))
      .toEqual(['rating', 'ratingsTotal']);
  });

  it('reports no incident while the core sends none', () => {
    expect(incidentFieldsOf({ cache: 'HIT', retrievedAt: '2026-11-28T10:00:00Z' })).toEqual([]);
  });

  it('makes a field under incident unknown even when the page gave a value, and a missing field unknown only where history expects it', () => {
    expect(unknownFieldsOf(listed, listed, new Set(['price']))).toEqual(['price']);
    expect(unknownFieldsOf({ rating: 4.4 }, listed)).toEqual(['price', 'isInStock', 'buyboxSellerId', 'ratingsTotal']);
    // An unavailable product shows no price and no seller: facts, not unknowns.
    expect(unknownFieldsOf({ isInStock: false, rating: 4.4, ratingsTotal: 20 }, listed)).toEqual([]);
    // Without history nothing is expected yet.
    expect(unknownFieldsOf({ rating: 4.4 }, null)).toEqual([]);
  });
});
