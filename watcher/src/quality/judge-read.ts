/**
 * A refresh's read turned into the snapshot it stores, with its quality marks: fields the history
 * expects but the page did not yield (or the core has under incident) are unknown; implausible values
 * are read a second time past the page cache, and a value that second read does not show is suspect.
 * Conditions fire from neither (conditions/evaluate.ts).
 */
import { sameValue } from '../conditions/compare.js';
import type { Snapshot, TrackedField } from '../model.js';
import type { SnapshotFields, SnapshotRead } from '../refresh/snapshot-reader.js';
import { unknownFieldsOf } from './expected-fields.js';
import { fieldsToConfirm } from './plausibility.js';

function without(fields: SnapshotFields, drop: readonly TrackedField[]): SnapshotFields {
  const kept: Record<string, unknown> = { ...fields };
  for (const field of drop) delete kept[field];
  return kept as SnapshotFields;
}

export type JudgedFields = SnapshotFields & Pick<Snapshot, 'unknownFields' | 'suspectFields'>;

export interface Judgement {
  readonly fields: JudgedFields;
  /** Whether a confirmation read was made (for the log; it is never charged: see docs/watches.md). */
  readonly confirmed: readonly TrackedField[];
}

/**
 * `trusted`: the product's history as of the previous refresh (null for its first); `readAgain`: one
 * read past the page cache, made only when a value needs confirming. A confirmation read that fails
 * (blocked, busy) confirms nothing: the values stay suspect and the next refresh reads them again.
 */
export async function judgeRead(
  read: Extract<SnapshotRead, { kind: 'snapshot' }>,
  trusted: Snapshot | null,
  readAgain: () => Promise<SnapshotRead>,
): Promise<Judgement> {
  const incident = new Set(read.incidentFields ?? []);
  const unknown = unknownFieldsOf(read.snapshot, trusted, incident);
  const fields = without(read.snapshot, unknown);
  const toConfirm = fieldsToConfirm(fields, trusted);
  let suspect: TrackedField[] = [];
  if (toConfirm.length > 0) {
    const again = await readAgain();
    suspect = again.kind === 'snapshot' ? toConfirm.filter((field) => !sameValue(field, fields, again.snapshot)) : toConfirm;
    // An unconfirmed "unavailable" explains no missing price: judged without the suspect values, a
    // price the page left out is unknown again, so a later return to it is no "new" price.
    const alsoUnknown = unknownFieldsOf(without(fields, suspect), trusted, incident).filter((f) => !suspect.includes(f) && !unknown.includes(f));
    unknown.push(...alsoUnknown);
  }
  return {
    fields: { ...fields, ...(unknown.length > 0 && { unknownFields: unknown }), ...(suspect.length > 0 && { suspectFields: suspect }) },
    confirmed: toConfirm,
  };
}
