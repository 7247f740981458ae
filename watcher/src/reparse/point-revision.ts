/**
 * What re-parsing changes in one history point: the fields an archived page, read again by the
 * current parser, gives differently from what the point holds. Pure, so the rule is read (and
 * tested) apart from the job and the store.
 *
 * - A field stored unknown (the old parser found nothing where the page should have shown it) takes
 *   the value the current parser reads; it stays unknown when that parser reads nothing either.
 * - A field stored with a value, suspect or not, takes the current parser's reading when it differs,
 *   a reading of nothing included: the same page read by the fixed parser is the better witness. A
 *   suspect value the re-read agrees with stays suspect: the same page cannot confirm itself (only a
 *   second fetch could, docs/watches.md "Quality marks").
 * Only the fields a refresh reads from the product page are re-derived (REPARSED_FIELDS): list
 * price and offer count never came from it.
 */
import type { Snapshot, TrackedField } from '../model.js';
import type { SnapshotFields } from '../refresh/snapshot-reader.js';

/** The fields a refresh reads from the product page (GetProduct and GetSalesEstimate), and so re-parsing re-derives. */
export const REPARSED_FIELDS = ['price', 'isInStock', 'buyboxSellerId', 'rating', 'ratingsTotal', 'bestSellersRank', 'bestSellersCategory'] as const satisfies readonly TrackedField[];

export type ReparsedField = (typeof REPARSED_FIELDS)[number];

export interface FieldRevision {
  readonly field: ReparsedField;
  /** The value the point held (undefined: none, or unknown). */
  readonly oldValue: unknown;
  readonly oldMark: 'unknown' | 'suspect' | undefined;
  /** The current parser's reading (undefined: the page shows none). */
  readonly newValue: unknown;
}

/** Equal readings: prices by value and currency, the rest by identity. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (typeof a === 'object' && typeof b === 'object' && a && b) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

export function reviseFields(point: Snapshot, reread: Omit<SnapshotFields, 'retrievedAt'>): FieldRevision[] {
  const revisions: FieldRevision[] = [];
  for (const field of REPARSED_FIELDS) {
    const unknown = point.unknownFields?.includes(field) ?? false;
    const suspect = point.suspectFields?.includes(field) ?? false;
    const oldValue = unknown ? undefined : point[field];
    const newValue = reread[field];
    if (unknown ? newValue === undefined : sameValue(oldValue, newValue)) continue;
    revisions.push({ field, oldValue, oldMark: unknown ? 'unknown' : suspect ? 'suspect' : undefined, newValue });
  }
  return revisions;
}

/** The point with its revisions applied: the new values in, the revised fields' marks gone, the point `revised`. */
export function revisedPoint(point: Snapshot, revisions: readonly FieldRevision[]): Snapshot {
  if (revisions.length === 0) return point;
  const fields = new Set<TrackedField>(revisions.map((r) => r.field));
  const out: Record<string, unknown> = { ...point };
  for (const r of revisions) {
    if (r.newValue === undefined) delete out[r.field];
    else out[r.field] = r.newValue;
  }
  const unknownFields = (point.unknownFields ?? []).filter((f) => !fields.has(f));
  const suspectFields = (point.suspectFields ?? []).filter((f) => !fields.has(f));
  return { ...(out as unknown as Snapshot), unknownFields, suspectFields, quality: 'revised' };
}
