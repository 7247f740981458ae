/**
 * The core client's routing, streaming and trace context against a grpc-js server of WatchService
 * (its one server-streaming RPC, StreamWatchEvents, and a unary one): calls go to WATCHER_ADDRESS with
 * the caller's account, or answer UNIMPLEMENTED without it; a stream yields the server's messages
 * with the same metadata and deadline as a unary call, stops the server's stream when the reader
 * leaves early or the signal aborts, and fails with the server's status and ErrorDetail.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { Metadata, Server, ServerCredentials, type ServerWritableStream, type ServiceDefinition, status } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  ErrorDetailSchema, ErrorReason, GRPC_STATUS_DETAILS_METADATA_KEY, type StreamWatchEventsRequest, StreamWatchEventsResponseSchema, WatchService, encodeErrorStatus,
} from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreClient } from './core-client.js';
import { errorDetailOf, mapCoreError } from './errors.js';
import { registryOperation } from './registry.js';

const TOKEN = 'core-client-stream-token';
const stream = WatchService.method.streamWatchEvents;
const getWatch = WatchService.method.getWatch;

interface Seen {
  readonly method: string;
  readonly metadata: Metadata;
  /** The deadline the call arrived with, in ms since the epoch. */
  readonly deadline?: number;
  ended?: 'finished' | 'cancelled';
}
const seen: Seen[] = [];
let server: Server;
let address: string;

/** StreamWatchEvents: watch "w-3" → three events; "w-forever" → one every 20 ms until cancelled; "w-bad" → one event, then NOT_FOUND. */
function streamWatchEvents(call: ServerWritableStream<StreamWatchEventsRequest, unknown>): void {
  const record: Seen = { method: 'StreamWatchEvents', metadata: call.metadata, deadline: Number(call.getDeadline()) };
  seen.push(record);
  const event = (i: number) => create(StreamWatchEventsResponseSchema, { cursor: `c${i}`, event: { id: `e${i}`, watchId: call.request.watchId ?? '' } });
  call.on('cancelled', () => (record.ended ??= 'cancelled')); // grpc-js also says so after its own end
  if (call.request.watchId === 'w-forever') {
    let i = 0;
    const timer = setInterval(() => call.write(event(i++)), 20);
    call.on('cancelled', () => clearInterval(timer));
    return;
  }
  call.write(event(0));
  if (call.request.watchId === 'w-bad') {
    const metadata = new Metadata();
    const detail = create(ErrorDetailSchema, { reason: ErrorReason.NOT_FOUND, message: 'watch not found', fieldPath: ['watch_id'] });
    metadata.set(GRPC_STATUS_DETAILS_METADATA_KEY, Buffer.from(encodeErrorStatus(status.NOT_FOUND, detail)));
    call.emit('error', { code: status.NOT_FOUND, details: 'watch not found', metadata });
    return;
  }
  call.write(event(1));
  call.write(event(2));
  record.ended = 'finished';
  call.end();
}

beforeAll(async () => {
  const definition: ServiceDefinition = {
    StreamWatchEvents: {
      path: `/${WatchService.typeName}/${stream.name}`, requestStream: false, responseStream: true,
      requestSerialize: (m) => Buffer.from(toBinary(stream.input, m as never)), requestDeserialize: (b: Buffer) => fromBinary(stream.input, b),
      responseSerialize: (m) => Buffer.from(toBinary(stream.output, m as never)), responseDeserialize: (b: Buffer) => fromBinary(stream.output, b),
    },
    GetWatch: {
      path: `/${WatchService.typeName}/${getWatch.name}`, requestStream: false, responseStream: false,
      requestSerialize: (m) => Buffer.from(toBinary(getWatch.input, m as never)), requestDeserialize: (b: Buffer) => fromBinary(getWatch.input, b),
      responseSerialize: (m) => Buffer.from(toBinary(getWatch.output, m as never)), responseDeserialize: (b: Buffer) => fromBinary(getWatch.output, b),
    },
  };
  server = new Server();
  server.addService(definition, {
    StreamWatchEvents: streamWatchEvents,
    GetWatch: (call: { metadata: Metadata; request: { id: string } }, callback: (err: null, res: unknown) => void) => {
      seen.push({ method: 'GetWatch', metadata: call.metadata });
      callback(null, create(getWatch.output, { retailWatch: { id: call.request.id } }));
    },
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  address = `127.0.0.1:${port}`;
});
afterAll(() => server?.forceShutdown());

const client = (deadlineMs = 5000) => createCoreClient({ address: '127.0.0.1:9', watcherAddress: address, serviceToken: TOKEN, deadlineMs });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('createCoreClient: routing, streams and trace context', () => {
  it('sends watch operations to the watcher with the service token, request id and account', async () => {
    const { response } = await client().callOperation(registryOperation('GetWatch'), { id: 'w-1' }, { requestId: 'req-w', accountId: 'acct-1' });
    expect((response as unknown as { retailWatch: { id: string } }).retailWatch.id).toBe('w-1');
    const { metadata } = seen.at(-1)!;
    expect([metadata.get('authorization')[0], metadata.get('x-request-id')[0], metadata.get('x-retail-account')[0]]).toEqual([`Bearer ${TOKEN}`, 'req-w', 'acct-1']);
  });

  it('answers UNIMPLEMENTED (501 for clients) for watch operations when no watcher address is configured', async () => {
    const without = createCoreClient({ address: '127.0.0.1:9', serviceToken: TOKEN });
    const error = await without.callOperation(registryOperation('GetWatch'), { id: 'w-1' }, { requestId: 'r', accountId: 'a' }).then(() => expect.unreachable(), (e: unknown) => e as ConnectError);
    expect(error.code).toBe(Code.Unimplemented);
    expect(mapCoreError(error, registryOperation('GetWatch'), 'rest').status).toBe(501);
    await expect(without.streamCall(stream, {}, { requestId: 'r', accountId: 'a' })[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: Code.Unimplemented });
  });

  it('streams the messages of a server-streaming call with the same metadata and deadline', async () => {
    const cursors: string[] = [];
    for await (const message of client().streamCall(stream, { watchId: 'w-3' }, { requestId: 'req-s', accountId: 'acct-2' })) cursors.push(message.cursor);
    expect(cursors).toEqual(['c0', 'c1', 'c2']);
    const { metadata } = seen.at(-1)!;
    expect([metadata.get('authorization')[0], metadata.get('x-request-id')[0], metadata.get('x-retail-account')[0]]).toEqual([`Bearer ${TOKEN}`, 'req-s', 'acct-2']);
    expect(seen.at(-1)!.deadline! - Date.now()).toBeGreaterThan(3000);
    expect(seen.at(-1)!.deadline! - Date.now()).toBeLessThanOrEqual(5000);
    expect(seen.at(-1)!.ended).toBe('finished');
  });

  it('cancels the server-side stream when the reader leaves early, and when the signal aborts', async () => {
    for await (const message of client().streamCall(stream, { watchId: 'w-forever' }, { requestId: 'r', accountId: 'a' })) {
      if (message.cursor === 'c1') break;
    }
    const left = seen.at(-1)!;
    await until(() => left.ended === 'cancelled');
    expect(left.ended).toBe('cancelled');

    const controller = new AbortController();
    const received: string[] = [];
    const error = await (async () => {
      for await (const message of client().streamCall(stream, { watchId: 'w-forever' }, { requestId: 'r', accountId: 'a', signal: controller.signal })) {
        received.push(message.cursor);
        if (received.length === 2) controller.abort();
      }
    })().then(() => expect.unreachable('the stream ended normally'), (e: unknown) => e as ConnectError);
    expect(error).toBeInstanceOf(ConnectError);
    expect(error.code).toBe(Code.Canceled);
    const aborted = seen.at(-1)!;
    await until(() => aborted.ended === 'cancelled');
    expect(aborted.ended).toBe('cancelled');
  });

  it('ends a stream at the deadline with DEADLINE_EXCEEDED (504 for clients)', async () => {
    const error = await (async () => {
      for await (const _ of client(150).streamCall(stream, { watchId: 'w-forever' }, { requestId: 'r', accountId: 'a' })) void _;
    })().then(() => expect.unreachable(), (e: unknown) => e as ConnectError);
    expect(error.code).toBe(Code.DeadlineExceeded);
    expect(mapCoreError(error, undefined, 'rest').status).toBe(504);
  });

  it("fails a stream with the server's status and its ErrorDetail after the messages sent before", async () => {
    const received: string[] = [];
    const error = await (async () => {
      for await (const message of client().streamCall(stream, { watchId: 'w-bad' }, { requestId: 'r', accountId: 'a' })) received.push(message.cursor);
    })().then(() => expect.unreachable(), (e: unknown) => e as ConnectError);
    expect(received).toEqual(['c0']);
    expect(error.code).toBe(Code.NotFound);
    expect(errorDetailOf(error)).toMatchObject({ reason: ErrorReason.NOT_FOUND, fieldPath: ['watch_id'] });
  });

  it('sends the trace context of the call (traceparent of its CLIENT span) when an SDK is registered', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
    try {
      await client().callOperation(registryOperation('GetWatch'), { id: 'w-2' }, { requestId: 'r', accountId: 'a' });
      const span = exporter.getFinishedSpans().find((s) => s.name === `${WatchService.typeName}/GetWatch`);
      expect(span?.attributes['rpc.service']).toBe(WatchService.typeName);
      const { traceId, spanId } = span!.spanContext();
      expect(seen.at(-1)!.metadata.get('traceparent')[0]).toBe(`00-${traceId}-${spanId}-01`);
    } finally {
      await provider.shutdown();
      trace.disable();
    }
  });
});
