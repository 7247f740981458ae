/**
 * How two snapshots' values compare. Prices compare in minor units (hundredths), so 19.99 read from
 * two pages is equal however the floats were parsed, and never across currencies; an unknown value
 * (the page did not show it) is never equal to, below or above a known one.
 */
import { TRACKED_FIELDS, type Snapshot, type TrackedField } from '../model.js';

type Price = NonNullable<Snapshot['price']>;

/** Hundredths of the currency's major unit (JPY prices are whole numbers and stay exact too). */
export function minorUnits(value: number): number {
  return Math.round(value * 100);
}

/** Both prices known and in one currency: their minor units; otherwise null (not comparable). */
export function comparablePrices(before: Price | undefined, after: Price | undefined): { before: number; after: number } | null {
  if (!before || !after || before.currency !== after.currency) return null;
  return { before: minorUnits(before.value), after: minorUnits(after.value) };
}

function samePrice(a: Price | undefined, b: Price | undefined): boolean {
  if (!a || !b) return a === b;
  return a.currency === b.currency && minorUnits(a.value) === minorUnits(b.value);
}

/**
 * Ratings are shown with one decimal; a recomputed average that rounds to the same tenth is no change.
 */
function sameRating(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Math.round(a * 10) === Math.round(b * 10);
}

/** Whether two snapshots show one value of `field` (both absent counts as the same). */
export function sameValue(field: TrackedField, before: Pick<Snapshot, TrackedField>, after: Pick<Snapshot, TrackedField>): boolean {
  switch (field) {
    case 'price':
    case 'listPrice':
      return samePrice(before[field], after[field]);
    case 'rating':
      return sameRating(before.rating, after.rating);
    default:
      return before[field] === after[field];
  }
}

/**
 * The tracked fields whose value differs between two snapshots, in TRACKED_FIELDS order, leaving out
 * `skip` (the fields either snapshot does not vouch for: going to or from unknown is not a change).
 */
export function changedFields(before: Snapshot, after: Snapshot, skip: ReadonlySet<TrackedField> = new Set()): TrackedField[] {
  return TRACKED_FIELDS.filter((field) => !skip.has(field) && !sameValue(field, before, after));
}

/** The named fields of a snapshot, for an event's `before`/`after` (unknown fields are left out). */
export function pick(snapshot: Snapshot, fields: ReadonlyArray<keyof Snapshot>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (snapshot[field] !== undefined) out[field] = snapshot[field];
  return out;
}
