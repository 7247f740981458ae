import type { DescMethod, Message } from '@bufbuild/protobuf';
import type { Metadata } from '@grpc/grpc-js';
import { ErrorReason } from '@retail/contract';
import type { CoreError } from '../errors.js';
import { type RpcName, validateRequest } from '../operations/index.js';
import { activeTraceId, inSpan } from '../telemetry/tracing.js';
import type { CallSignal } from './call-signal.js';
import { freshReadOf, priorityOf, requestIdOf, rpcSpanOptions } from './call-parts.js';
import { type OperationServices, noteFailure, runOperation } from './run-operation.js';
import { toCoreError } from './status.js';
import { archiveHintOf, withArchiveHint } from '../archive/archive-hint.js';

/** What serving one unary call needs from its gRPC call: the metadata it came with and its deadline. */
export interface UnaryCallParts {
  readonly metadata: Metadata;
  readonly deadline: CallSignal;
  /** Set when the call reached the core inside a gateway's coalesced BatchLookup: its span says so (`retail.coalesced`). */
  readonly coalesced?: boolean;
}

/**
 * One unary call: validate → handler (or UNIMPLEMENTED) → response message. Every failure leaves as
 * its CoreError's status plus ErrorDetail; anything else as INTERNAL with the generic message, the
 * cause logged and never sent.
 */
async function serveCall(rpc: RpcName, method: DescMethod, message: Message, { metadata, deadline }: UnaryCallParts, options: OperationServices): Promise<{ response?: Message; error?: CoreError }> {
  const requestId = requestIdOf(metadata);
  const traceId = activeTraceId();
  const logger = options.logger.child({ requestId, rpc, ...(traceId ? { traceId } : {}) });
  const started = performance.now();
  let host: string | undefined;
  try {
    const request = validateRequest(rpc, message);
    host = request.marketplace.host;
    const scope = { signal: deadline.signal, deadlineAt: deadline.endsAt, logger, requestId, priority: priorityOf(metadata), freshRead: freshReadOf(metadata) };
    // The pages this call fetches know why it wants them archived (a watch refresh), core/src/archive.
    const response = await withArchiveHint(archiveHintOf(metadata), () => runOperation(rpc, method, request, scope, options));
    logger.info({ ms: Math.round(performance.now() - started), code: 'OK' }, 'call served');
    return { response };
  } catch (thrown) {
    const error = toCoreError(thrown, deadline.deadlinePassed());
    noteFailure(error, thrown, { host, ms: Math.round(performance.now() - started), logger, services: options });
    return { error };
  }
}

function spanOptions(rpc: RpcName, { metadata, coalesced }: UnaryCallParts) {
  const options = rpcSpanOptions(rpc, metadata);
  return coalesced ? { ...options, attributes: { ...options.attributes, 'retail.coalesced': true } } : options;
}

/**
 * A unary call inside its SERVER span (child of the caller's trace context): what every unary RPC
 * runs, and every item of a batch a gateway coalesced from unary calls (coalesced-calls.ts), so
 * both answer, log and trace alike.
 */
export function serveTracedCall(rpc: RpcName, method: DescMethod, message: Message, parts: UnaryCallParts, options: OperationServices): Promise<{ response?: Message; error?: CoreError }> {
  return inSpan(
    `retail.v1.RetailService/${rpc}`,
    { ...spanOptions(rpc, parts), failed: ({ error }) => (error ? ErrorReason[error.reason] : undefined) },
    () => serveCall(rpc, method, message, parts, options),
  );
}
