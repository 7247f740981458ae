/**
 * THE SEAM for data incidents (issue 23, sections 1–3, built on another branch): which snapshot
 * fields the core says it cannot read reliably right now, from its answer's metadata. The refresh
 * stores those fields as unknown (quality/expected-fields.ts), so no condition fires from them.
 *
 * Today the core's answer carries no incident metadata, so this returns none; when it does (the
 * `X-Data-Incident` fields, a gRPC trailer), map its field names here with CORE_FIELD_TO_SNAPSHOT and
 * nothing else changes: tests already drive the rest with an injected incident set
 * (test/watcher/quality/incident-seam.test.ts).
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

/** The fields under incident according to an answer's metadata: none until the core reports incidents. */
export function incidentFieldsOf(meta: ResponseInfo & { readonly incidentFields?: readonly string[] }): TrackedField[] {
  return snapshotFieldsOf(meta.incidentFields ?? []);
}
