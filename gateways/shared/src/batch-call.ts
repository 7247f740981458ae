/**
 * A batch call on REST and MCP, metered: the whole call is admitted once (credentials, scope for
 * every item's operation, a rate cost of its item count, one unit held per well-formed item, 402 for
 * the whole call when the balance cannot cover them), its items stream from the core's BatchLookup
 * as they complete, and it settles for the items that succeeded only. Malformed items answer their
 * 400 at once and are neither sent nor held; items the stream never answered (deadline, core gone)
 * answer the error the single call would have.
 */
import type { HeaderBag } from '@retail/metering/api';
import { ErrorReason } from '@retail/contract';
import type { BatchItemOperation } from './batch-registry.js';
import { type BatchItemInput, readBatchBody, toBatchItem } from './batch-items.js';
import { type BatchItemOutcome, failedItem, itemOutcome, refusedItem } from './batch-results.js';
import type { CallOptions, CoreClient } from './core-client.js';
import { type ClientError, mapCoreError } from './errors.js';
import type { ParameterStyle } from './parameters.js';
import {
  type CallResult, type PipelineDeps, admitCall, chargedOperations, refusalHeaders, meteringHeaders, requestIdFrom, servedHeaders, settleHold,
} from './pipeline.js';

export interface BatchCallInput {
  /** The object holding `items` as the client gave it: the REST body, the MCP tool arguments. */
  readonly body: Readonly<Record<string, unknown>>;
  /** Where that object sits, for error paths: `["body"]` on REST, `[]` for MCP arguments. */
  readonly at: readonly string[];
  readonly style: Extract<ParameterStyle, 'rest' | 'mcp'>;
  readonly headers: HeaderBag;
  /** Cap on the item count below the batch's own 100 (MCP's small one). */
  readonly maxItems?: number;
}

/** What a finished batch settled, and the headers that say so. */
export interface BatchSettlement {
  readonly headers: Record<string, string>;
  readonly unitsCharged: number;
  readonly unitsRemaining?: number;
  /** Every item's outcome, in the order they completed. */
  readonly outcomes: readonly BatchItemOutcome[];
}

export type BatchAdmission =
  | { readonly ok: false; readonly result: CallResult & { readonly ok: false } }
  | {
    readonly ok: true;
    readonly requestId: string;
    /** What is known before any item ran: X-Request-Id and the rate limit state. */
    readonly headers: Record<string, string>;
    /** Runs the items, handing each outcome to `onItem` as it completes, then settles. Call once. */
    run(onItem: (outcome: BatchItemOutcome) => void, signal?: AbortSignal): Promise<BatchSettlement>;
  };

/** A well-formed item to send: its operation and request, the client's index, where its params sat. */
export interface RunnableItem {
  readonly index: number;
  readonly item: BatchItemOperation;
  readonly request: Record<string, unknown>;
  readonly paramsPath: readonly string[];
}

/**
 * Sends `items` as one BatchLookup and hands every item's outcome to `onOutcome` exactly once, with
 * the client's index: as its result arrives; when the stream fails as a whole, the error the single
 * call would have answered (504 past the deadline, 503 when the core is gone) for every item not yet
 * answered; a stream that ended without answering one is a fault of the service (500). Nothing is
 * sent for no items.
 */
export async function runBatchItems(core: CoreClient, items: readonly RunnableItem[], options: CallOptions, style: ParameterStyle, onOutcome: (outcome: BatchItemOutcome) => void): Promise<void> {
  if (items.length === 0) return;
  const answered = new Set<number>();
  const answer = (position: number, outcome: BatchItemOutcome) => {
    if (answered.has(position)) return;
    answered.add(position);
    onOutcome(outcome);
  };
  let unanswered: ClientError = { status: 500, reason: ErrorReason.INTERNAL, message: 'internal error', cause: new Error('the batch stream ended without answering every item') };
  try {
    // BatchLookup's indexes are positions among the items sent, mapped back to the client's.
    await core.streamBatch(items.map((item) => toBatchItem(item.item, item.request)), options, (result) => {
      const item = items[result.index];
      if (item) answer(result.index, { ...itemOutcome(result, item.item, style, item.paramsPath), index: item.index });
    });
  } catch (err) {
    unanswered = mapCoreError(err, undefined, style);
  }
  items.forEach((item, position) => answer(position, failedItem(item.index, unanswered)));
}

/** Admits a batch call; a refusal (credentials, 403, 429, a body that is no batch, 402) is the whole call's. */
export async function admitBatch(deps: PipelineDeps, input: BatchCallInput): Promise<BatchAdmission> {
  const requestId = requestIdFrom(input.headers);
  const read = readBatchBody(input.body, input.at, input.style, input.maxItems);
  const items = read.ok ? read.items : [];
  const runnable = items.filter((item): item is Extract<BatchItemInput, { ok: true }> => item.ok);
  const admitted = await admitCall(deps.meter, {
    headers: input.headers,
    iface: input.style,
    operations: runnable.flatMap((item) => chargedOperations(item.item.op)),
    shapeErrors: read.ok ? [] : read.errors,
    requestId,
    // A batch counts as its items against the rate limit; a body that is no batch as one call.
    rateCost: Math.max(1, items.length),
  });
  if (!admitted.ok) {
    return { ok: false, result: { ...admitted.failure, headers: refusalHeaders(deps.meter, requestId, admitted), unitsCharged: 0, requestId } };
  }
  const { hold, rateLimit } = admitted;
  const run = async (onItem: (outcome: BatchItemOutcome) => void, signal?: AbortSignal): Promise<BatchSettlement> => {
    const outcomes: BatchItemOutcome[] = [];
    const emit = (outcome: BatchItemOutcome) => {
      outcomes.push(outcome);
      onItem(outcome);
    };
    for (const item of items) if (!item.ok) emit(refusedItem(item.index, item.errors));
    const sent = runnable.map((item) => ({ ...item, paramsPath: [...input.at, 'items', String(item.index), 'params'] }));
    await runBatchItems(deps.core, sent, { requestId, accountId: hold.accountId, ...(signal ? { signal } : {}) }, input.style, emit);
    const served = new Set(outcomes.flatMap((o) => (o.ok ? [o.index] : [])));
    const succeeded = runnable.filter((item) => served.has(item.index)).flatMap((item) => chargedOperations(item.item.op));
    const settled = await settleHold(deps.meter, hold, succeeded);
    return {
      headers: servedHeaders(deps.meter, { requestId, rateLimit, settled, results: outcomes }),
      unitsCharged: settled.charged,
      ...(settled.remaining !== undefined ? { unitsRemaining: settled.remaining } : {}),
      outcomes,
    };
  };
  return { ok: true, requestId, headers: meteringHeaders(deps.meter, { requestId, rateLimit }), run };
}
