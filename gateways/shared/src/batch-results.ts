/**
 * BatchItemResult → the wire entry of one item: `{index, status: 200, data}` with the `data` its
 * single call answers (rendered by the contract's wire renderer), or `{index, status, errors}` with
 * the usual envelope entries (status, message and path mapped as the single call maps them, the path
 * under where the item's params sat). REST's JSON document and NDJSON lines, the MCP tool and the
 * watcher's bulk jobs all write these entries.
 */
import { type BatchItemResult, ErrorReason, type WireObject, renderData } from '@retail/contract';
import type { BatchItemOperation } from './batch-registry.js';
import { responseInfo } from './core-client.js';
import { type ClientError, clientErrorOfDetail } from './errors.js';
import type { ParameterError, ParameterStyle } from './parameters.js';
import { type CallFailure, type CallSuccess, type EnvelopeError, failure, singleFailure } from './call-results.js';

/** One item's outcome, as every interface needs it: the call's success (with the operation that answered) or failure, and its index. */
export type BatchItemOutcome = ((CallSuccess & { readonly item: BatchItemOperation }) | CallFailure) & { readonly index: number };

/** A failed item's outcome. */
export type FailedBatchItem = CallFailure & { readonly index: number };

/** One item on the wire. */
export type BatchEntry =
  | { readonly index: number; readonly status: 200; readonly data: WireObject }
  | { readonly index: number; readonly status: number; readonly errors: EnvelopeError[] };

/** A failure the client-facing error mapping produced, as an item's outcome. */
export function failedItem(index: number, error: ClientError): BatchItemOutcome {
  return { ...singleFailure(error.status, error.reason, error.message, error.path, error.retryAfterSeconds), cause: error.cause, index };
}

/** A malformed item: its 400 with every parameter error, nothing run or held. */
export function refusedItem(index: number, errors: readonly ParameterError[]): BatchItemOutcome {
  return { ...failure(400, ErrorReason.INVALID_ARGUMENT, errors.map((e) => ({ code: 400, message: e.message, path: e.path }))), index };
}

/**
 * The outcome of a streamed result: success when it carries its operation's response, the mapped
 * ErrorDetail when it failed (field paths under `paramsPath`), a fault of the service otherwise.
 */
export function itemOutcome(result: BatchItemResult, item: BatchItemOperation, style: ParameterStyle, paramsPath: readonly string[]): BatchItemOutcome {
  const { index } = result;
  const { case: kind, value } = result.result;
  if (kind === 'error') return failedItem(index, clientErrorOfDetail(value, item.op, style, paramsPath));
  if (kind !== item.kind.resultField.localName || value === undefined) {
    return failedItem(index, { status: 500, reason: ErrorReason.INTERNAL, message: 'internal error', cause: new Error(`batch item ${index}: result ${String(kind)} for ${item.op.name}`) });
  }
  return { ok: true, status: 200, data: renderData(item.op.response, value), meta: responseInfo(value), item, index };
}

/** The wire entry of an outcome. */
export function batchEntry(outcome: BatchItemOutcome): BatchEntry {
  return outcome.ok ? { index: outcome.index, status: 200, data: outcome.data } : { index: outcome.index, status: outcome.status, errors: outcome.errors };
}
