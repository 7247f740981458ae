/**
 * A bulk job's result (a stored BatchItemResult) as the batch entry every interface shows:
 * `{index, status: 200, data}` with the data the single call answers, or `{index, status, errors}`.
 * The REST pages, the NDJSON and CSV downloads, GraphQL and MCP all render results here (through
 * the wire override of response-data.ts for the paged reads), so a job's line reads exactly as the
 * batch's line for the same item.
 *
 * A stored error names its item's operation apart (`item_operation`, when the item named one), so its
 * field path (request field names, or a refused item's path inside the item: `operation`,
 * `params.<name>`) is placed under the item as the job's JSON body wrote it: `["body", "items", "<index>", "params", "<name>"]` on REST, without "body" elsewhere.
 */
import type { BatchItemResult, ErrorDetail } from '@retail/contract';
import { compactData, ErrorReason } from '@retail/contract';
import { BATCH_REGISTRY, type BatchItemOperation } from './batch-registry.js';
import { type BatchEntry, batchEntry, failedItem, itemOutcome } from './batch-results.js';
import { clientErrorOfDetail } from './errors.js';
import type { ParameterStyle } from './parameters.js';

const BY_RESULT_CASE = new Map(BATCH_REGISTRY.items.map((item) => [item.kind.resultField.localName, item]));
const BY_ITEM_FIELD = new Map(BATCH_REGISTRY.items.map((item) => [item.kind.itemField.name, item]));

/** Request field names of every item operation → their client names (`only_verified_reviews` → `onlyVerifiedReviews`). */
const CLIENT_NAMES = new Map(BATCH_REGISTRY.items.flatMap((item) => item.op.parameters.map((p) => [p.field.name, p.name] as const)));

const ITEM_PLACES = new Set(['operation', 'params']);

/** Where the item sits for `style`: its params' errors point below it. */
export function jobItemPath(index: number, style: ParameterStyle): string[] {
  return style === 'rest' ? ['body', 'items', String(index)] : ['items', String(index)];
}

/** The detail's path inside the item: a refused item's as given, a request field's under `params`. */
function insideItem(detail: ErrorDetail): string[] {
  const [first] = detail.fieldPath;
  if (first === undefined) return [];
  if (ITEM_PLACES.has(first)) return [...detail.fieldPath];
  return ['params', ...detail.fieldPath.map((name) => CLIENT_NAMES.get(name) ?? name)];
}

/** The operation whose response a successful result carries. */
export function resultOperation(result: BatchItemResult): BatchItemOperation | undefined {
  return result.result.case === undefined ? undefined : BY_RESULT_CASE.get(result.result.case);
}

/** The operation a result's item named: the success's, or the one an error result keeps (none when the item named none). */
export function resultItemOperation(result: BatchItemResult): BatchItemOperation | undefined {
  return result.result.case === 'error' ? BY_ITEM_FIELD.get(result.itemOperation) : resultOperation(result);
}

/** The entry of one stored result for `style`; `compact` leaves the bulky fields out of records (MCP). */
export function jobResultEntry(result: BatchItemResult, style: ParameterStyle, compact = false): BatchEntry {
  const { index } = result;
  const { case: kind, value } = result.result;
  if (kind === 'error') {
    const inside = insideItem(value);
    const error = clientErrorOfDetail({ ...value, fieldPath: inside }, undefined, style, jobItemPath(index, style));
    // A refused item whose fault is the item as a whole (not an object, an unknown key) points at the item.
    const wholeItem = inside.length === 0 && value.reason === ErrorReason.INVALID_ARGUMENT;
    return batchEntry(failedItem(index, wholeItem ? { ...error, path: jobItemPath(index, style) } : error));
  }
  const item = resultOperation(result);
  if (!item) return batchEntry(failedItem(index, { status: 500, reason: ErrorReason.INTERNAL, message: 'internal error' }));
  const outcome = itemOutcome(result, item, style, []);
  if (!outcome.ok || !compact) return batchEntry(outcome);
  return { index, status: 200, data: compactData(item.op.response, outcome.data) };
}
