/**
 * One item of a bulk job through the core: a BatchItem's request case names its operation (the
 * registry operation whose request message the case carries), the call goes out as background work
 * (`x-retail-priority: background`, so the core's host caps serve waiting interactive calls first),
 * and its outcome becomes the item's BatchItemResult: the response in the case whose message is the
 * operation's response, or the error. Nothing here is a table: both cases are found by message type.
 */
import { create, type DescField, type Message } from '@bufbuild/protobuf';
import {
  type BatchItem, BatchItemResultSchema, BatchItemSchema, type BatchItemResult, type ErrorDetail, ErrorDetailSchema, ErrorReason,
} from '@retail/contract';
import { API_REGISTRY, type CoreClient, mapCoreError, type Operation } from '@retail/gateway-shared';

const requestCases = BatchItemSchema.oneofs[0]!.fields;
const resultCases = BatchItemResultSchema.fields.filter((f) => f.oneof !== undefined);

function caseFor(fields: readonly DescField[], typeName: string): DescField {
  const field = fields.find((f) => f.message?.typeName === typeName);
  if (!field) throw new Error(`no case carries ${typeName}`);
  return field;
}

/** Per request case: its operation and the result case that carries the operation's response. */
const ITEM_OPERATIONS = new Map(requestCases.map((field) => {
  const op = API_REGISTRY.find((o) => o.request.typeName === field.message!.typeName);
  if (!op) throw new Error(`BatchItem.${field.name}: no operation takes ${field.message!.typeName}`);
  return [field.localName, { op, resultCase: caseFor(resultCases, op.response.typeName).localName }] as const;
}));

/** The operation an item runs; undefined for an item without a request (the service refuses those at create). */
export function itemOperation(item: BatchItem): Operation | undefined {
  return item.request.case === undefined ? undefined : ITEM_OPERATIONS.get(item.request.case)?.op;
}

const RESULT_OPERATIONS = new Map([...ITEM_OPERATIONS.values()].map(({ op, resultCase }) => [resultCase, op.name]));

/** The RPC whose response a successful result carries (for the usage records); undefined for an error. */
export function operationOfResult(result: BatchItemResult): string | undefined {
  return result.result.case === undefined ? undefined : RESULT_OPERATIONS.get(result.result.case);
}

/** An item's outcome, or `retry` when the core could not serve it now (unreachable, busy, blocked, slow). */
export type ItemOutcome = { readonly kind: 'result'; readonly result: BatchItemResult } | { readonly kind: 'retry'; readonly why: string };

export function errorResult(index: number, error: ErrorDetail): BatchItemResult {
  return create(BatchItemResultSchema, { index, result: { case: 'error', value: error } });
}

/**
 * "Not now" from the core: 429 (its host caps), 503 (unreachable, the host's breaker open, a block
 * page), 504 (the marketplace or the core too slow). Worth another attempt later. A 500 (a fault of
 * the core) or a 502 (a page the parsers did not understand) would most likely fail the same way
 * again: it is the item's result at once, as an interactive call would answer it.
 */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503 || status === 504;
}

/** Client parameter names back to the request's proto field names (ErrorDetail.field_path). */
function protoPath(op: Operation, path: readonly string[] | undefined): string[] {
  return (path ?? []).map((name) => op.request.fields.find((f) => f.jsonName === name)?.name ?? name);
}

export interface ItemCallOptions {
  readonly jobId: string;
  /** The last attempt records a transient failure as the item's error instead of asking for a retry. */
  readonly lastAttempt: boolean;
  readonly signal?: AbortSignal;
}

export async function runItem(core: Pick<CoreClient, 'callOperation'>, index: number, item: BatchItem, options: ItemCallOptions): Promise<ItemOutcome> {
  const entry = item.request.case === undefined ? undefined : ITEM_OPERATIONS.get(item.request.case);
  if (!entry) {
    return { kind: 'result', result: errorResult(index, create(ErrorDetailSchema, { reason: ErrorReason.INVALID_ARGUMENT, message: 'the item names no operation' })) };
  }
  try {
    const { response } = await core.callOperation(entry.op, item.request.value as unknown as Record<string, unknown>, {
      requestId: `job-${options.jobId}-${index}`,
      background: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const result = create(BatchItemResultSchema, { index });
    (result.result as { case: string; value: Message }) = { case: entry.resultCase, value: response };
    return { kind: 'result', result };
  } catch (error) {
    const mapped = mapCoreError(error, entry.op, 'graphql');
    if (!options.lastAttempt && isRetryableStatus(mapped.status)) return { kind: 'retry', why: `${mapped.status} ${mapped.message}` };
    const detail = create(ErrorDetailSchema, {
      reason: mapped.reason,
      message: mapped.message,
      fieldPath: protoPath(entry.op, mapped.path),
      ...(mapped.retryAfterSeconds !== undefined && { retryAfterSeconds: mapped.retryAfterSeconds }),
    });
    return { kind: 'result', result: errorResult(index, detail) };
  }
}
