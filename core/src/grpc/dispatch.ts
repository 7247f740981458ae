import type { DescMethod, Message } from '@bufbuild/protobuf';
import type { ServerUnaryCall, ServerWritableStream, UntypedServiceImplementation, sendUnaryData } from '@grpc/grpc-js';
import { type BatchLookupRequest, ErrorReason, RetailService } from '@retail/contract';
import type { CoreError } from '../errors.js';
import { type RpcName, isRpcName, validateRequest } from '../operations/index.js';
import { type BatchServices, serveBatchLookup } from './batch-lookup.js';
import { createBatchMetrics } from './batch-metrics.js';
import { callSignal } from './call-signal.js';
import { priorityOf, requestIdOf, rpcSpanOptions } from './call-parts.js';
import { type OperationServices, noteFailure, runOperation } from './run-operation.js';
import { coreErrorStatus, toCoreError } from './status.js';
import { activeTraceId, inSpan } from '../telemetry/tracing.js';

export interface DispatchOptions extends OperationServices {
  /** Budget of a call that carries no deadline. */
  readonly defaultBudgetMs?: number;
  /** Items of one BatchLookup that run at once (BATCH_CONCURRENCY). */
  readonly batchConcurrency?: number;
}

/**
 * One unary call: validate → handler (or UNIMPLEMENTED) → response message. Every failure leaves as
 * its CoreError's status plus ErrorDetail; anything else as INTERNAL with the generic message, the
 * cause logged and never sent.
 */
async function serveCall(rpc: RpcName, method: DescMethod, call: ServerUnaryCall<Message, Message>, options: DispatchOptions): Promise<{ response?: Message; error?: CoreError }> {
  const requestId = requestIdOf(call.metadata);
  const traceId = activeTraceId();
  const logger = options.logger.child({ requestId, rpc, ...(traceId ? { traceId } : {}) });
  const started = performance.now();
  const deadline = callSignal(call, options.defaultBudgetMs);
  let host: string | undefined;
  try {
    const request = validateRequest(rpc, call.request);
    host = request.marketplace.host;
    const response = await runOperation(rpc, method, request, { signal: deadline.signal, deadlineAt: deadline.endsAt, logger, requestId, priority: priorityOf(call.metadata) }, options);
    logger.info({ ms: Math.round(performance.now() - started), code: 'OK' }, 'call served');
    return { response };
  } catch (thrown) {
    const error = toCoreError(thrown, deadline.deadlinePassed());
    noteFailure(error, thrown, { host, ms: Math.round(performance.now() - started), logger, services: options });
    return { error };
  } finally {
    deadline.dispose();
  }
}

function unaryMethod(rpc: RpcName, method: DescMethod, options: DispatchOptions) {
  return (call: ServerUnaryCall<Message, Message>, callback: sendUnaryData<Message>) => {
    const traced = inSpan(
      `retail.v1.RetailService/${rpc}`,
      { ...rpcSpanOptions(rpc, call.metadata), failed: ({ error }) => (error ? ErrorReason[error.reason] : undefined) },
      () => serveCall(rpc, method, call, options),
    );
    void traced.then(({ response, error }) => {
      if (error) callback(coreErrorStatus(error));
      else callback(null, response);
    });
  };
}

/** grpc-js implementation of every RetailService method: the unary operations by RPC name, and BatchLookup. */
export function createRetailImplementation(options: DispatchOptions): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  const batch: BatchServices = { ...options, methods: new Map(RetailService.methods.map((m) => [m.name, m])), batchMetrics: createBatchMetrics() };
  for (const method of RetailService.methods) {
    const rpc = method.name;
    if (method === RetailService.method.batchLookup) {
      implementation[rpc] = (call: ServerWritableStream<BatchLookupRequest, Message>) => void serveBatchLookup(call, batch);
      continue;
    }
    if (!isRpcName(rpc)) throw new Error(`RPC ${rpc} has no operation`);
    implementation[rpc] = unaryMethod(rpc, method, options);
  }
  return implementation;
}
