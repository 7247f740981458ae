/**
 * The WatchService handlers bound to grpc-js calls: the account and request id from the metadata,
 * cancellation as an AbortSignal, every failure as its status plus ErrorDetail (an unexpected one as
 * INTERNAL, logged with its cause). Streams write with back-pressure and end when the client cancels;
 * a server that stops ends them with UNAVAILABLE so clients resume from their last cursor elsewhere.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { DescService, Message } from '@bufbuild/protobuf';
import {
  type Metadata, type ServerUnaryCall, type ServerWritableStream, type sendUnaryData, status as GrpcStatus, type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { ErrorReason } from '@retail/contract';
import { accountOf } from './auth.js';
import type { CallContext, ServiceLog } from './deps.js';
import { grpcStatusOf, toWatchServiceError, unauthenticated } from './errors.js';
import type { StreamHandler, UnaryHandler } from './watch-service.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The abort reason of streams ended because the server stops (not because their client left). */
export const SERVER_STOPPING = new Error('the watcher is stopping');

function contextOf(metadata: Metadata, signal: AbortSignal): CallContext {
  const accountId = accountOf(metadata);
  // The interceptor refused such calls already; this keeps a handler from ever running without one.
  if (accountId === null) throw unauthenticated('x-retail-account metadata missing or malformed');
  const given = metadata.get('x-request-id')[0];
  return { accountId, requestId: typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID(), signal };
}

function failureStatus(error: unknown, rpc: string, log: ServiceLog | undefined) {
  const failure = toWatchServiceError(error);
  if (failure.reason === ErrorReason.INTERNAL) log?.error({ err: failure.cause ?? error, rpc }, 'call failed');
  return grpcStatusOf(failure);
}

export interface BindOptions {
  readonly log?: ServiceLog;
  /** Open streams, so that stopping the server can end them. */
  readonly streams: Set<AbortController>;
}

function unary(rpc: string, handler: UnaryHandler, options: BindOptions) {
  return (call: ServerUnaryCall<Message, Message>, callback: sendUnaryData<Message>) => {
    const controller = new AbortController();
    call.once('cancelled', () => controller.abort(new Error('the client cancelled the call')));
    Promise.resolve()
      .then(() => handler(call.request, contextOf(call.metadata, controller.signal)))
      .then((response) => callback(null, response), (error: unknown) => callback(failureStatus(error, rpc, options.log)));
  };
}

function serverStream(rpc: string, handler: StreamHandler, options: BindOptions) {
  return (call: ServerWritableStream<Message, Message>): void => void streamTo(call, rpc, handler, options);
}

async function streamTo(call: ServerWritableStream<Message, Message>, rpc: string, handler: StreamHandler, options: BindOptions): Promise<void> {
  const controller = new AbortController();
  call.once('cancelled', () => controller.abort(new Error('the client cancelled the call')));
  options.streams.add(controller);
  try {
    for await (const message of handler(call.request, contextOf(call.metadata, controller.signal))) {
      if (!call.write(message)) await once(call, 'drain', { signal: controller.signal });
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      call.emit('error', failureStatus(error, rpc, options.log));
      return;
    }
  } finally {
    options.streams.delete(controller);
  }
  // A client that left needs no status; one whose server stops is told to resume elsewhere.
  if (controller.signal.reason === SERVER_STOPPING) {
    call.emit('error', { code: GrpcStatus.UNAVAILABLE, details: 'the watcher is stopping; resume from the last cursor' });
  } else if (!controller.signal.aborted) {
    call.end();
  }
}

/** The grpc-js implementation of `service` from handlers keyed by each method's local name. */
export function grpcImplementation(service: DescService, handlers: Record<string, unknown>, options: BindOptions): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const method of service.methods) {
    const handler = handlers[method.localName];
    if (typeof handler !== 'function') throw new Error(`${service.typeName}/${method.name} has no handler`);
    implementation[method.name] = method.methodKind === 'server_streaming'
      ? serverStream(method.name, handler as StreamHandler, options)
      : unary(method.name, handler as UnaryHandler, options);
  }
  return implementation;
}
