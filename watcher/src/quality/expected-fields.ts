/**
 * Which fields a refreshed page should show, judged by the product's own history: a field the
 * product had a trusted value for and the page no longer yields is UNKNOWN (a renamed price block, a
 * moved availability block), not "gone", unless its absence is itself a fact of a healthy page (no
 * price while the product is unavailable). Declared once per tracked field; nothing else decides it.
 */
import { TRACKED_FIELDS, type Snapshot, type TrackedField } from '../model.js';

type Fields = Pick<Snapshot, TrackedField>;

/** When a field the product had may be absent from a healthy page (true: its absence is a fact, not an unknown). */
const MAY_BE_ABSENT: Record<TrackedField, (read: Fields) => boolean> = {
  // An unavailable product shows neither a price nor a buy-box seller: both go with an explicit "unavailable".
  price: (read) => read.isInStock === false,
  buyboxSellerId: (read) => read.isInStock === false,
  // A strike-through list price comes and goes with deals; the offer count is shown only at times.
  listPrice: () => true,
  offerCount: () => true,
  // Availability, ratings and the rank never leave a listed product's page.
  isInStock: () => false,
  rating: () => false,
  ratingsTotal: () => false,
  bestSellersRank: () => false,
  bestSellersCategory: () => false,
};

/**
 * The fields of `read` to store as unknown: those under a data incident (whatever the page gave:
 * the core says its reading of them cannot be trusted now), and those `trusted` (the product's
 * history as of the previous refresh, store/snapshots.ts trustedAt) had that the page did not yield.
 * The seam for issue 23's incidents: `incidentFields` comes from the core's answer metadata.
 */
export function unknownFieldsOf(read: Fields, trusted: Fields | null, incidentFields: ReadonlySet<TrackedField> = new Set()): TrackedField[] {
  return TRACKED_FIELDS.filter((field) => {
    if (incidentFields.has(field)) return true;
    if (read[field] !== undefined || trusted?.[field] === undefined) return false;
    return !MAY_BE_ABSENT[field](read);
  });
}
