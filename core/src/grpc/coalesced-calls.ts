import { setMaxListeners } from 'node:events';
import { type Message, create } from '@bufbuild/protobuf';
import { Metadata, type ServerWritableStream } from '@grpc/grpc-js';
import { BATCH_ERROR_FIELD, BATCH_MAX_ITEMS, type BatchItem, type BatchLookupRequest, BatchLookupResponseSchema, type CoalescedCall, ErrorReason, PRIORITY_METADATA_KEY, REQUEST_ID_METADATA_KEY, RULE_MESSAGES, batchKindOfCase } from '@retail/contract';
import { CoreError, invalidArgument } from '../errors.js';
import { isRpcName } from '../operations/index.js';
import type { BatchServices } from './batch-lookup.js';
import { type CallSignal, callSignal } from './call-signal.js';
import { requestIdOf } from './call-parts.js';
import { resultWriter } from './result-writer.js';
import { noteFailure } from './run-operation.js';
import { coreErrorStatus, errorDetailOf, toCoreError } from './status.js';
import { type UnaryCallParts, serveTracedCall } from './unary-call.js';

type Call = ServerWritableStream<BatchLookupRequest, Message>;

/** The count rules of a coalesced batch: 1..BATCH_MAX_ITEMS items, and one call per item. */
function checkShape({ items, calls }: BatchLookupRequest): void {
  if (items.length === 0 || items.length > BATCH_MAX_ITEMS) throw invalidArgument(RULE_MESSAGES.listLength('items', 1, BATCH_MAX_ITEMS), 'items');
  if (calls.length !== items.length) throw invalidArgument(`calls must hold one entry per item (${items.length} items, ${calls.length} calls)`, 'calls');
}

/**
 * The metadata the unary call would have come with: its request id and trace context from its
 * CoalescedCall, the batch's priority (a gateway coalesces only calls of one priority).
 */
function unaryMetadata(batch: Metadata, coalesced: CoalescedCall): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(coalesced.traceContext)) metadata.set(key, value);
  if (coalesced.requestId) metadata.set(REQUEST_ID_METADATA_KEY, coalesced.requestId);
  const priority = batch.get(PRIORITY_METADATA_KEY)[0];
  if (priority !== undefined) metadata.set(PRIORITY_METADATA_KEY, priority);
  return metadata;
}

/** An item's result: its RPC's response case, or the error case. */
type BatchItemOutcome = { case: string; value: Message };

/** One item served exactly as its unary call (unary-call.ts), its outcome as the item's result. */
async function serveItem(item: BatchItem, parts: UnaryCallParts, services: BatchServices): Promise<BatchItemOutcome> {
  const kind = item.request.case === undefined ? undefined : batchKindOfCase(item.request.case);
  const rpc = kind?.method.name;
  if (!kind || rpc === undefined || !isRpcName(rpc)) return { case: BATCH_ERROR_FIELD.localName, value: errorDetailOf(new CoreError(ErrorReason.INVALID_ARGUMENT, RULE_MESSAGES.batchItemOperation())) };
  const { response, error } = await serveTracedCall(rpc, kind.method, item.request.value as Message, parts, services);
  if (error) return { case: BATCH_ERROR_FIELD.localName, value: errorDetailOf(error) };
  return { case: kind.resultField.localName, value: response! };
}

/**
 * BatchLookup as a gateway sends it when it coalesced concurrent unary lookups (`calls` set, one
 * per item): each item is served exactly as its unary call would be (serveTracedCall: validation,
 * handler, its SERVER span under the call's trace context, its `call served` or `call refused` line
 * under the call's request id), all at once as the unary calls would have run (no
 * BATCH_CONCURRENCY, no merging of identical items: each call has its own log line and span), and
 * each result streamed as soon as it is known. The batch has no span of its own: the traces are the
 * unary calls'. The deadline is the batch's (the latest of the calls'; each caller keeps its own).
 */
export async function serveCoalescedCalls(call: Call, services: BatchServices): Promise<void> {
  const logger = services.logger.child({ requestId: requestIdOf(call.metadata), rpc: 'BatchLookup', coalesced: true });
  try {
    checkShape(call.request);
  } catch (thrown) {
    const error = toCoreError(thrown, false);
    noteFailure(error, thrown, { host: undefined, ms: 0, logger, services });
    call.emit('error', coreErrorStatus(error));
    return;
  }
  const started = performance.now();
  const deadline: CallSignal = callSignal(call, services.defaultBudgetMs);
  // Every running item listens to the call's signal: up to a few per item.
  setMaxListeners(4 * BATCH_MAX_ITEMS, deadline.signal);
  const out = resultWriter(call, deadline.signal);
  const { items, calls } = call.request;
  try {
    await Promise.all(items.map(async (item, index) => {
      const result = await serveItem(item, { metadata: unaryMetadata(call.metadata, calls[index]!), deadline, coalesced: true }, services);
      out.write(create(BatchLookupResponseSchema, { result: { index, result: result as never } }));
    }));
    await out.drained();
    if (!deadline.signal.aborted) call.end();
    logger.debug({ ms: Math.round(performance.now() - started), items: items.length, stopped: deadline.signal.aborted }, 'coalesced calls served');
  } finally {
    deadline.dispose();
  }
}
