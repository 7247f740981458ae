/**
 * A stand-in core for gateway tests: a real gRPC server (HTTP/2, Connect's gRPC protocol) serving
 * RetailService with handlers the test supplies. Methods without a handler answer UNIMPLEMENTED
 * with the ErrorDetail the real core sends. It checks the service token like the real core.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { type Message, create, toBinary } from '@bufbuild/protobuf';
import { ConnectError, type HandlerContext, encodeBinaryHeader } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { ERROR_DETAIL_METADATA_KEY, ErrorDetailSchema, ErrorReason, RetailService, errorRow } from '@retail/contract';

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
  const impl: Record<string, (req: Message, ctx: HandlerContext) => Promise<Message>> = {};
  for (const method of RetailService.methods) {
    impl[method.localName] = async (req, ctx) => {
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
