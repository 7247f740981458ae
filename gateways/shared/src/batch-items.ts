/**
 * Wire batch items → BatchItem messages. A body's `items` is a list of `{"operation": "product",
 * "params": {...}}`; each item's params go through its operation's own shape checks
 * (parseParameters, the same rules and messages as the single call, values as JSON like a REST body
 * or MCP arguments), so a malformed item is that item's 400 with the usual message, its path inside
 * the list (`["body", "items", "3", "params", "asin"]` on REST). Only what no item can answer for
 * refuses the whole call: `items` missing or not a list, not 1 to `maxItems` of them, another key beside it.
 */
import { create } from '@bufbuild/protobuf';
import { type BatchItem, BatchItemSchema, RULE_MESSAGES } from '@retail/contract';
import { BATCH_REGISTRY, type BatchItemOperation, batchItemNamed } from './batch-registry.js';
import { type ParameterError, type ParameterStyle, displayName, parseParameters } from './parameters.js';

/** One item as the client wrote it: runnable, or refused with its parameter errors. */
export type BatchItemInput =
  | { readonly index: number; readonly ok: true; readonly item: BatchItemOperation; readonly request: Record<string, unknown> }
  /** `item`: the operation the refused item named, when only its params were at fault. */
  | { readonly index: number; readonly ok: false; readonly errors: ParameterError[]; readonly item?: BatchItemOperation };

export type BatchItemsResult =
  | { readonly ok: true; readonly items: readonly BatchItemInput[] }
  | { readonly ok: false; readonly errors: ParameterError[] };

const ITEM_KEYS = new Set(['operation', 'params']);
const OPERATION_NAMES = BATCH_REGISTRY.items.map((item) => item.name);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How an item's params are written: JSON values (a JSON body, MCP arguments), or text (a CSV row's cells). */
export interface ItemReading {
  readonly style: ParameterStyle;
  /** Params as text, as a query string writes them (numbers and booleans spelled, lists comma-separated). */
  readonly text?: boolean;
}

/**
 * One item `{"operation", "params"}` as the client wrote it, at `[...at, index]`: runnable with its
 * operation's request, or refused with the errors its operation's shape checks (or the item's own
 * form) give. The one translation of an item for batches and bulk jobs (JSON, NDJSON and CSV bodies).
 */
export function readBatchItem(value: unknown, index: number, at: readonly string[], reading: ItemReading): BatchItemInput {
  const path = [...at, String(index)];
  const refuse = (message: string, ...where: string[]): BatchItemInput => ({ index, ok: false, errors: [{ message, path: [...path, ...where] }] });
  if (!isObject(value)) return refuse(RULE_MESSAGES.object(`items[${index}]`));
  const unknown = Object.keys(value).find((key) => !ITEM_KEYS.has(key));
  if (unknown !== undefined) return refuse(RULE_MESSAGES.unknownParameter(displayName(`items[${index}].${unknown}`)), unknown);
  if (value.operation === undefined || value.operation === null) return refuse(RULE_MESSAGES.required('operation'), 'operation');
  const item = typeof value.operation === 'string' ? batchItemNamed(value.operation) : undefined;
  if (!item) return refuse(RULE_MESSAGES.enumValue('operation', OPERATION_NAMES), 'operation');
  const params = value.params ?? {};
  if (!isObject(params)) return { ...refuse(RULE_MESSAGES.object('params'), 'params'), item };
  const parsed = parseParameters(item.op, params, reading.style, () => ({ text: reading.text === true, path: [...path, 'params'] }));
  return parsed.ok ? { index, ok: true, item, request: parsed.request } : { index, ok: false, errors: parsed.errors, item };
}

/**
 * Reads a batch body `{"items": [...]}` (found at `at`: `["body"]` on REST, `[]` for MCP arguments)
 * with 1 to `maxItems` items (the batch's 100, or a smaller cap such as MCP's); any other key is unknown.
 */
export function readBatchBody(body: Readonly<Record<string, unknown>>, at: readonly string[], style: ParameterStyle, maxItems = BATCH_REGISTRY.maxItems): BatchItemsResult {
  const unknown = Object.keys(body).filter((key) => key !== 'items');
  if (unknown.length > 0) return { ok: false, errors: unknown.map((key) => ({ message: RULE_MESSAGES.unknownParameter(displayName(key)), path: [...at, key] })) };
  const { items } = body;
  const path = [...at, 'items'];
  if (!Array.isArray(items)) return { ok: false, errors: [{ message: items === undefined ? RULE_MESSAGES.required('items') : RULE_MESSAGES.list('items'), path }] };
  if (items.length === 0 || items.length > maxItems) return { ok: false, errors: [{ message: RULE_MESSAGES.listLength('items', 1, maxItems), path }] };
  return { ok: true, items: items.map((value, index) => readBatchItem(value, index, path, { style })) };
}

/** The BatchItem message of a runnable item: its case, and its operation's request message. */
export function toBatchItem(item: BatchItemOperation, request: Record<string, unknown>): BatchItem {
  return create(BatchItemSchema, { request: { case: item.kind.itemField.localName, value: create(item.op.request, request) } as never });
}
