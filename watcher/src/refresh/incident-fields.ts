/**
 * Where data incidents (issue 23, docs/data-health.md) reach the watcher: which snapshot fields the
 * core says it cannot read reliably right now, from its answer's metadata (`meta.dataIncident`, the
 * same incident clients see as `X-Data-Incident`). The refresh stores those fields as unknown
 * (quality/expected-fields.ts), so no condition fires from them, whatever the page showed.
 */
import type { ResponseInfo } from '@retail/gateway-shared';
import type { TrackedField } from '../model.js';

/** The core's product field names (as in `X-Data-Incident: …; fields="price isInStock"`) and the snapshot field each feeds. */
export const CORE_FIELD_TO_SNAPSHOT: Readonly<Record<string, TrackedField>> = {
  price: 'price',
  isInStock: 'isInStock',
  seller: 'buyboxSellerId',
  rating: 'rating',
  ratingsTotal: 'ratingsTotal',
  bestSellersRank: 'bestSellersRank',
};

/** The snapshot fields named by a list of the core's field names (unknown names are ignored). */
export function snapshotFieldsOf(coreFields: readonly string[]): TrackedField[] {
  return [...new Set(coreFields.flatMap((name) => CORE_FIELD_TO_SNAPSHOT[name] ?? []))];
}

/** The fields under incident according to an answer's metadata: none while the core reports no incident. */
export function incidentFieldsOf(meta: ResponseInfo): TrackedField[] {
  return snapshotFieldsOf(meta.dataIncident?.fields ?? []);
}
