/**
 * A stand-in core for gateway tests: a real gRPC server (HTTP/2, Connect's gRPC protocol) serving
 * RetailService with handlers the test supplies. Methods without a handler answer UNIMPLEMENTED
 * with the ErrorDetail the real core sends. It checks the service token like the real core.
 * BatchLookup (unless a test gives its own handler) runs each item through the handler of the
 * item's RPC, in order, and streams its result: each item is recorded as a call of that RPC with
 * the stream's metadata. Unlike the real core it does not fetch identical items once. A batch a
 * gateway coalesced from unary calls (`calls` set) runs its items at once, each recorded with its
 * own call's request id and trace context, as the real core serves them.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { type Message, create, toBinary } from '@bufbuild/protobuf';
import { ConnectError, type HandlerContext, encodeBinaryHeader } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { BATCH_ERROR_FIELD, ERROR_DETAIL_METADATA_KEY, ErrorDetailSchema, ErrorReason, RetailService, batchKindOfCase, errorRow, type BatchLookupRequest } from '@retail/contract';

export type StubHandler = (request: Message, context: HandlerContext) => Promise<Message | Record<string, unknown>> | Message | Record<string, unknown>;

export interface StubCore {
  readonly address: string;
  /** Requests seen, by RPC name, with the metadata that came with them. */
  readonly calls: Array<{ method: string; request: Message; headers: Headers }>;
  close(): Promise<void>;
}

/** Which trailers carry the ErrorDetail: both (as the core sends them), or one, as an older or a later core would. */
export type ErrorTrailers = 'both' | 'standard' | 'legacy';

/**
 * The error the real core raises: gRPC status from the table plus the ErrorDetail, in the standard
 * `grpc-status-details-bin` (Connect writes it from the error's details) and the deprecated
 * `retail-error-bin`.
 */
export function coreError(reason: ErrorReason, message?: string, fieldPath: string[] = [], retryAfterSeconds?: number, trailers: ErrorTrailers = 'both'): ConnectError {
  const row = errorRow(reason);
  const detail = create(ErrorDetailSchema, { reason, message: message ?? row.defaultMessage, fieldPath, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });
  const metadata = new Headers();
  if (trailers !== 'standard') metadata.set(ERROR_DETAIL_METADATA_KEY, encodeBinaryHeader(toBinary(ErrorDetailSchema, detail)));
  const details = trailers === 'legacy' ? [] : [{ desc: ErrorDetailSchema, value: detail }];
  return new ConnectError(message ?? row.defaultMessage, row.grpcCode as number, metadata, details);
}

export async function startStubCore(options: { serviceToken: string; handlers?: Record<string, StubHandler> }): Promise<StubCore> {
  const calls: StubCore['calls'] = [];
  const handlers = options.handlers ?? {};
  const impl: Record<string, unknown> = {};
  /** One item's result message; a coalesced item (`calls` set) is recorded with its own call's request id and trace context. */
  async function answer(req: BatchLookupRequest, index: number, ctx: HandlerContext) {
    const item = req.items[index]!;
    const kind = item.request.case === undefined ? undefined : batchKindOfCase(item.request.case);
    const value = item.request.value as Message | undefined;
    if (!kind || !value) return { result: { index, result: { case: BATCH_ERROR_FIELD.localName, value: create(ErrorDetailSchema, { reason: ErrorReason.INVALID_ARGUMENT, message: 'no operation' }) } } };
    const coalesced = req.calls[index];
    const headers = new Headers(ctx.requestHeader);
    if (coalesced) {
      headers.set('x-request-id', coalesced.requestId);
      for (const [key, traceValue] of Object.entries(coalesced.traceContext)) headers.set(key, traceValue);
    }
    calls.push({ method: kind.method.name, request: value, headers });
    const handler = handlers[kind.method.name];
    try {
      if (!handler) throw coreError(ErrorReason.UNIMPLEMENTED);
      const out = await handler(value, ctx);
      return { result: { index, result: { case: kind.resultField.localName, value: '$typeName' in out ? out : create(kind.method.output, out) } } };
    } catch (error) {
      const detail = error instanceof ConnectError ? error.findDetails(ErrorDetailSchema)[0] : undefined;
      return { result: { index, result: { case: BATCH_ERROR_FIELD.localName, value: detail ?? create(ErrorDetailSchema, { reason: ErrorReason.INTERNAL, message: 'internal error' }) } } };
    }
  }
  impl[RetailService.method.batchLookup.localName] = async function* batchLookup(req: BatchLookupRequest, ctx: HandlerContext) {
    if (ctx.requestHeader.get('authorization') !== `Bearer ${options.serviceToken}`) throw coreError(ErrorReason.UNAUTHENTICATED_SERVICE);
    if (req.calls.length === 0) {
      for (const index of req.items.keys()) yield await answer(req, index, ctx);
      return;
    }
    // Coalesced unary calls run at once, as the real core runs them, each answered as it completes.
    const pending = new Map(req.items.map((_item, index) => [index, answer(req, index, ctx).then((result) => ({ index, result }))]));
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      pending.delete(index);
      yield result;
    }
  };
  for (const method of RetailService.methods) {
    if (method.methodKind !== 'unary') continue;
    impl[method.localName] = async (req: Message, ctx: HandlerContext) => {
      calls.push({ method: method.name, request: req, headers: ctx.requestHeader });
      if (ctx.requestHeader.get('authorization') !== `Bearer ${options.serviceToken}`) throw coreError(ErrorReason.UNAUTHENTICATED_SERVICE);
      const handler = handlers[method.name];
      if (!handler) throw coreError(ErrorReason.UNIMPLEMENTED);
      const out = await handler(req, ctx);
      return ('$typeName' in out ? out : create(method.output, out)) as Message;
    };
  }
  const server = http2.createServer(connectNodeAdapter({ routes: (router) => router.service(RetailService, impl as never) }));
  server.on('connection', (socket: import('node:net').Socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Open HTTP/2 sessions keep close() waiting; the gateway's client owns them.
      setTimeout(resolve, 200).unref();
    }),
  };
}
