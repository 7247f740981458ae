/**
 * A bulk job's results as CSV rows (RFC 4180, UTF-8, written by csv-stringify): one row per item,
 * the columns fixed for every job so a file reads the same whatever operations it mixes:
 *
 * - `index`, `status` (200 or the item's error status), `operation` (the item's operation,
 *   `product/offers`…, an error's too; empty only when the item named no operation the job runs);
 * - the key fields of every item operation's record, derived from the proto (the record's own
 *   scalar and enum fields, and the scalar and enum fields of its nested messages as
 *   `parent.child`, e.g. `price.value`, `stockEstimate.estimate`); lists (images, offers, reviews,
 *   variants) and the fields the proto marks bulky are left out: the NDJSON download has them;
 * - `error`: the item's error messages, `; `-joined; empty on a success.
 *
 * A field an item's record does not have is an empty cell; so is null. Booleans are `true`/`false`.
 */
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { type BatchItemResult, isBulky, type WireObject, type WireValue } from '@retail/contract';
import { stringify } from 'csv-stringify/sync';
import { BATCH_REGISTRY } from './batch-registry.js';
import { jobResultEntry, resultItemOperation } from './job-results.js';

const TIMESTAMP = 'google.protobuf.Timestamp';

/** A column: its header and how to read it from a record (`["price", "value"]`). */
interface Column {
  readonly name: string;
  readonly path: readonly string[];
}

const isFlat = (field: DescField) => field.fieldKind === 'scalar' || field.fieldKind === 'enum' || (field.fieldKind === 'message' && field.message.typeName === TIMESTAMP);

function recordColumns(record: DescMessage): Column[] {
  return record.fields.filter((f) => !isBulky(f)).flatMap((field): Column[] => {
    if (isFlat(field)) return [{ name: field.jsonName, path: [field.jsonName] }];
    if (field.fieldKind !== 'message') return [];
    return field.message.fields.filter((f) => isFlat(f) && !isBulky(f)).map((f) => ({ name: `${field.jsonName}.${f.jsonName}`, path: [field.jsonName, f.jsonName] }));
  });
}

function buildColumns(): Column[] {
  const seen = new Map<string, Column>();
  for (const item of BATCH_REGISTRY.items) {
    const root = item.op.response.fields.find((f) => f.jsonName === item.op.dataRoot)?.message;
    if (root) for (const column of recordColumns(root)) if (!seen.has(column.name)) seen.set(column.name, column);
  }
  return [...seen.values()];
}

const RECORD_COLUMNS = buildColumns();

/** The header row's names, in order. */
export const JOB_CSV_COLUMNS: readonly string[] = ['index', 'status', 'operation', ...RECORD_COLUMNS.map((c) => c.name), 'error'];

function cell(value: WireValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function read(record: WireObject, path: readonly string[]): WireValue | undefined {
  let value: WireValue | undefined = record;
  for (const key of path) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined;
  return value;
}

/** The header line (with its CRLF). */
export function jobCsvHeader(): string {
  return stringify([JOB_CSV_COLUMNS], { record_delimiter: 'windows' });
}

/** One result as a CSV line (with its CRLF). */
export function jobCsvRow(result: BatchItemResult): string {
  const entry = jobResultEntry(result, 'rest');
  const item = resultItemOperation(result);
  const record = 'data' in entry ? entry.data[item?.op.dataRoot ?? ''] : undefined;
  const fields = RECORD_COLUMNS.map((c) => (record && typeof record === 'object' && !Array.isArray(record) ? cell(read(record, c.path)) : ''));
  const error = 'errors' in entry ? entry.errors.map((e) => e.message).join('; ') : '';
  return stringify([[String(entry.index), String(entry.status), item?.name ?? '', ...fields, error]], { record_delimiter: 'windows' });
}
