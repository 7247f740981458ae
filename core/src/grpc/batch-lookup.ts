import { setMaxListeners } from 'node:events';
import { type DescMethod, type Message, create } from '@bufbuild/protobuf';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { BATCH_ERROR_FIELD, BATCH_MAX_ITEMS, type BatchLookupRequest, BatchLookupResponseSchema, ErrorReason, batchKindOfRpc } from '@retail/contract';
import pLimit from 'p-limit';
import { DEFAULT_BATCH_CONCURRENCY } from '../config.js';
import type { CoreError } from '../errors.js';
import { type BatchGroup, type BatchPlan, planBatch } from '../operations/batch-plan.js';
import { runWhenFree } from '../resilience/host-limits.js';
import { activeTraceId, inSpan } from '../telemetry/tracing.js';
import type { BatchMetrics } from './batch-metrics.js';
import { callSignal } from './call-signal.js';
import { resultWriter } from './result-writer.js';
import { priorityOf, requestIdOf, rpcSpanOptions } from './call-parts.js';
import { type CallScope, type OperationServices, noteFailure, runOperation } from './run-operation.js';
import { coreErrorStatus, errorDetailOf, toCoreError } from './status.js';

export interface BatchServices extends OperationServices {
  readonly methods: ReadonlyMap<string, DescMethod>;
  readonly batchConcurrency?: number;
  readonly defaultBudgetMs?: number;
  readonly batchMetrics?: BatchMetrics;
}

type Call = ServerWritableStream<BatchLookupRequest, Message>;

/**
 * BatchLookup: every item validated as its unary RPC (operations/batch-plan.ts), identical items
 * run once, at most `batchConcurrency` at a time (each still under the per-host caps of the page
 * fetcher), each result streamed as soon as it is known, tagged with its index. An item's failure
 * is its result's ErrorDetail, exactly what its unary call would have answered; the stream fails
 * only when the request as a whole is unusable. A cancel or the deadline stops items not started.
 */
export async function serveBatchLookup(call: Call, services: BatchServices): Promise<void> {
  const requestId = requestIdOf(call.metadata);
  const traceId = activeTraceId();
  const logger = services.logger.child({ requestId, rpc: 'BatchLookup', ...(traceId ? { traceId } : {}) });
  await inSpan('retail.v1.RetailService/BatchLookup', { ...rpcSpanOptions('BatchLookup', call.metadata), failed: (error: CoreError | undefined) => (error ? ErrorReason[error.reason] : undefined) }, async (span) => {
    let plan: BatchPlan;
    try {
      plan = planBatch(call.request.items);
    } catch (thrown) {
      const error = toCoreError(thrown, false);
      noteFailure(error, thrown, { host: undefined, ms: 0, logger, services });
      call.emit('error', coreErrorStatus(error));
      return error;
    }
    const items = call.request.items.length;
    span.setAttributes({ 'retail.batch.items': items, 'retail.batch.calls': plan.groups.length });
    const started = performance.now();
    const deadline = callSignal(call, services.defaultBudgetMs);
    // Every queued item and every running one listens to the call's signal: up to a few per item.
    setMaxListeners(4 * BATCH_MAX_ITEMS, deadline.signal);
    const out = resultWriter(call, deadline.signal);
    const answer = (indexes: readonly number[], rpc: string, result: { case: string; value: Message }, resultName: string) => {
      indexes.forEach((index, i) => {
        services.batchMetrics?.item(rpc, resultName, i > 0);
        out.write(create(BatchLookupResponseSchema, { result: { index, result: result as never } }));
      });
    };
    const fail = (indexes: readonly number[], rpc: string, error: CoreError) =>
      answer(indexes, rpc, { case: BATCH_ERROR_FIELD.localName, value: errorDetailOf(error) }, ErrorReason[error.reason] ?? 'UNSPECIFIED');
    for (const { index, rpc, error } of plan.refused) fail([index], rpc ?? 'none', error);
    const scope: CallScope = { signal: deadline.signal, deadlineAt: deadline.endsAt, logger, requestId, priority: priorityOf(call.metadata) };
    const run = async (group: BatchGroup) => {
      const rpc = group.rpc;
      const itemStarted = performance.now();
      try {
        const response = await inSpan(`retail.v1.RetailService/${rpc}`, { attributes: { 'rpc.method': rpc, 'retail.batch.indexes': group.indexes.length } }, () =>
          runOperation(rpc, services.methods.get(rpc)!, group.request, scope, services));
        answer(group.indexes, rpc, { case: batchKindOfRpc(rpc)!.resultField.localName, value: response }, 'OK');
      } catch (thrown) {
        if (deadline.signal.aborted) return; // the call is over: grpc-js answered the client already
        const error = toCoreError(thrown, deadline.deadlinePassed());
        noteFailure(error, thrown, { host: group.request.marketplace.host, ms: Math.round(performance.now() - itemStarted), logger, services });
        fail(group.indexes, rpc, error);
      }
    };
    const limit = pLimit(services.batchConcurrency ?? DEFAULT_BATCH_CONCURRENCY);
    try {
      // An item still queued when the call is cancelled or its deadline passes never starts.
      await Promise.all(plan.groups.map((group) => runWhenFree(limit, () => run(group), deadline.signal).catch(() => undefined)));
      await out.drained();
      const ms = Math.round(performance.now() - started);
      if (deadline.signal.aborted) {
        logger.info({ ms, items, calls: plan.groups.length, deadlinePassed: deadline.deadlinePassed() }, 'batch stopped');
        return undefined;
      }
      call.end();
      logger.info({ ms, items, calls: plan.groups.length, refused: plan.refused.length, code: 'OK' }, 'batch served');
      return undefined;
    } finally {
      deadline.dispose();
    }
  });
}
