import { randomUUID } from 'node:crypto';
import { type DescMethod, type Message, create, isFieldSet } from '@bufbuild/protobuf';
import type { Metadata, ServerUnaryCall, UntypedServiceImplementation, sendUnaryData } from '@grpc/grpc-js';
import { ErrorReason, RetailService } from '@retail/contract';
import { CoreError } from '../errors.js';
import type { Logger } from '../logger.js';
import { type HandlerTable, type RpcName, UNIMPLEMENTED, isRpcName, validateRequest } from '../operations/index.js';
import type { ParsedPageSource } from '../cache/parsed-pages.js';
import type { OperationContext } from '../operations/types.js';
import type { PageFetcher } from '../pages/types.js';
import type { ParsePool } from '../workers/pool.js';
import type { UpstreamMetrics } from '../outcomes/metrics.js';
import { outcomeClassOf } from '../resilience/outcome-class.js';
import { abortRejection, callSignal } from './call-signal.js';
import { trackPages } from './page-tracker.js';
import { coreErrorStatus, toCoreError } from './status.js';
import { SpanKind, activeTraceId, contextFromMetadata, inSpan } from '../telemetry/tracing.js';

export interface DispatchOptions {
  readonly handlers: HandlerTable;
  readonly pages: PageFetcher;
  /** Cached parsed pages and the parse pool, handed to every handler (operations/parsed-pages.ts). */
  readonly parsedPages?: ParsedPageSource;
  readonly parsePool?: ParsePool;
  /** Where an unparseable page is counted (the fetch itself was counted as ok by the resilience layer). */
  readonly metrics?: Pick<UpstreamMetrics, 'outcome'>;
  readonly logger: Logger;
  /** Budget of a call that carries no deadline. */
  readonly defaultBudgetMs?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A call marked `x-retail-priority: background` (a bulk job's item) yields to interactive calls at the host caps. */
function priorityOf(metadata: Metadata): 'background' | undefined {
  return metadata.get('x-retail-priority')[0] === 'background' ? 'background' : undefined;
}

/** The caller's request id (gateways forward theirs) or a new one. */
function requestIdOf(metadata: Metadata): string {
  const given = metadata.get('x-request-id')[0];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
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
  const aborted = abortRejection(deadline.signal);
  let host: string | undefined;
  try {
    const request = validateRequest(rpc, call.request);
    host = request.marketplace.host;
    const handler = options.handlers[rpc];
    if (handler === UNIMPLEMENTED) throw new CoreError(ErrorReason.UNIMPLEMENTED, `${rpc} is not implemented yet`);
    const tracker = trackPages(options.pages);
    const context: OperationContext = {
      marketplace: request.marketplace,
      signal: deadline.signal,
      deadlineAt: deadline.endsAt,
      pages: tracker.pages,
      ...(options.parsedPages ? { parsedPages: options.parsedPages } : {}),
      ...(options.parsePool ? { parsePool: options.parsePool } : {}),
      logger,
      requestId,
      ...(priorityOf(call.metadata) ? { priority: 'background' as const } : {}),
    };
    const init = await Promise.race([(handler as (r: unknown, c: OperationContext) => Promise<unknown>)(request, context), aborted.promise]);
    const response = create(method.output, init as never) as Message;
    const metaField = method.output.field.meta;
    const meta = tracker.meta();
    if (metaField && meta && !isFieldSet(response, metaField)) {
      (response as unknown as Record<string, unknown>).meta = create(metaField.message!, meta as never);
    }
    logger.info({ ms: Math.round(performance.now() - started), code: 'OK' }, 'call served');
    return { response };
  } catch (thrown) {
    const error = toCoreError(thrown, deadline.deadlinePassed());
    const ms = Math.round(performance.now() - started);
    if (host && outcomeClassOf(error) === 'unparseable') options.metrics?.outcome(host, 'unparseable');
    if (error.reason === ErrorReason.INTERNAL || error.reason === ErrorReason.UNSPECIFIED) {
      logger.error({ ms, reason: ErrorReason[error.reason], err: error.cause ?? thrown }, 'call failed');
    } else {
      logger.info({ ms, reason: ErrorReason[error.reason], fieldPath: error.fieldPath, cause: describeCause(error.cause) }, 'call refused');
    }
    return { error };
  } finally {
    aborted.dispose();
    deadline.dispose();
  }
}

function describeCause(cause: unknown): string | undefined {
  return cause instanceof Error ? cause.message : cause === undefined ? undefined : String(cause);
}

/** grpc-js implementation of every RetailService method, dispatched by RPC name. */
export function createRetailImplementation(options: DispatchOptions): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const method of RetailService.methods) {
    const rpc = method.name;
    if (!isRpcName(rpc)) throw new Error(`RPC ${rpc} has no operation`);
    implementation[rpc] = (call: ServerUnaryCall<Message, Message>, callback: sendUnaryData<Message>) => {
      // One SERVER span per call, child of the caller's trace (traceparent in the gRPC metadata).
      const traced = inSpan(
        `retail.v1.RetailService/${rpc}`,
        {
          kind: SpanKind.SERVER,
          parent: contextFromMetadata(call.metadata),
          attributes: { 'rpc.system': 'grpc', 'rpc.service': 'retail.v1.RetailService', 'rpc.method': rpc },
          failed: ({ error }) => (error ? ErrorReason[error.reason] : undefined),
        },
        () => serveCall(rpc, method, call, options),
      );
      void traced.then(({ response, error }) => {
        if (error) callback(coreErrorStatus(error));
        else callback(null, response);
      });
    };
  }
  return implementation;
}
