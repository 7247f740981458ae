/**
 * A bulk job's items through the core: a chunk's items go out as one BatchLookup stream marked as
 * background work (`x-retail-priority: background`, so the core's host caps serve waiting
 * interactive calls first, and identical items are fetched once), and each streamed result becomes
 * the item's BatchItemResult at its position in the job. A BatchItem's request case names its
 * operation (the gateways' batch registry says which).
 */
import { create } from '@bufbuild/protobuf';
import {
  type BatchItem, BatchItemResultSchema, type BatchItemResult, type ErrorDetail, ErrorDetailSchema, ErrorReason, RetailService,
} from '@retail/contract';
import { BATCH_REGISTRY, clientErrorOfDetail, type CoreClient, mapCoreError, type Operation } from '@retail/gateway-shared';

/**
 * Per request case (localName): its operation, its proto name, and the result case that carries the
 * operation's response, as the gateways' batch registry matched them from @retail/contract's BATCH_ITEM_KINDS.
 */
const ITEM_OPERATIONS = new Map(BATCH_REGISTRY.items.map(({ op, kind }) => [kind.itemField.localName, { op, caseName: kind.itemField.name, resultCase: kind.resultField.localName }] as const));

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

/** The BatchItem case an item names, by its proto name (`asin_from_gtin`); empty when it names none. */
export function itemCaseName(item: BatchItem): string {
  return item.request.case === undefined ? '' : ITEM_OPERATIONS.get(item.request.case)?.caseName ?? '';
}

/** An item's error as its result; `itemOperation`: the BatchItem case the item named, so a results file can say which lookup failed. */
export function errorResult(index: number, error: ErrorDetail, itemOperation = ''): BatchItemResult {
  return create(BatchItemResultSchema, { index, result: { case: 'error', value: error }, itemOperation });
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

export interface ItemCallOptions {
  readonly jobId: string;
  readonly chunk: number;
  /** The last attempt records a transient failure as the item's error instead of asking for a retry. */
  readonly lastAttempt: boolean;
  /** Deadline of the chunk's BatchLookup stream (within the ledger hold's lifetime). */
  readonly deadlineMs: number;
  readonly signal?: AbortSignal;
}

/** One item to run: its position in the job and its request. */
export interface PendingItem {
  readonly index: number;
  readonly item: BatchItem;
}

/** An error for an item: its result, or `retry` when its status is "not now" and attempts remain. */
function outcomeOf(entry: PendingItem, error: ErrorDetail, status: number, options: ItemCallOptions): ItemOutcome {
  if (!options.lastAttempt && isRetryableStatus(status)) return { kind: 'retry', why: `${status} ${error.message}` };
  return { kind: 'result', result: errorResult(entry.index, error, itemCaseName(entry.item)) };
}

const statusOf = (error: ErrorDetail) => clientErrorOfDetail(error, undefined, 'graphql').status;

/**
 * Runs a chunk's items as one BatchLookup stream, marked as background work: the core validates
 * each as its unary call, fetches identical items once, runs them under its host caps, and streams
 * each result as it completes. A result carries the item's position in the job; an item the core
 * could not serve now asks for a retry. When the stream fails as a whole (deadline, core gone), the
 * items it had not answered get the mapped failure (a retry, or on the last attempt their error).
 */
export async function runItems(core: Pick<CoreClient, 'streamCall'>, pending: readonly PendingItem[], options: ItemCallOptions): Promise<ItemOutcome[]> {
  if (pending.length === 0) return [];
  const outcomes = new Map<number, ItemOutcome>();
  // What an item the stream never answered gets: a fault of the service, "not now" until the last attempt.
  let unanswered = { error: create(ErrorDetailSchema, { reason: ErrorReason.INTERNAL, message: 'the batch stream ended without this item' }), status: 503 };
  try {
    const stream = core.streamCall(RetailService.method.batchLookup, { items: pending.map((p) => p.item) }, {
      requestId: `job-${options.jobId}-c${options.chunk}`,
      background: true,
      deadlineMs: options.deadlineMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for await (const { result } of stream) {
      const entry = result && pending[result.index];
      if (!result || !entry || outcomes.has(result.index)) continue;
      const answer = result.result;
      if (answer.case === 'error') outcomes.set(result.index, outcomeOf(entry, answer.value, statusOf(answer.value), options));
      else if (answer.case !== undefined) outcomes.set(result.index, { kind: 'result', result: create(BatchItemResultSchema, { index: entry.index, result: answer }) });
    }
  } catch (error) {
    const mapped = mapCoreError(error, undefined, 'graphql');
    unanswered = {
      error: create(ErrorDetailSchema, { reason: mapped.reason, message: mapped.message, ...(mapped.retryAfterSeconds !== undefined && { retryAfterSeconds: mapped.retryAfterSeconds }) }),
      status: mapped.status,
    };
  }
  return pending.map((p, position) => outcomes.get(position) ?? outcomeOf(p, unanswered.error, unanswered.status, options));
}
