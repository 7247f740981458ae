/**
 * Calls of protoc-gen-es methods over @grpc/grpc-js, one channel per backend address. Messages
 * cross as toBinary/fromBinary of @bufbuild/protobuf, as on the core's side
 * (the same @retail/contract/grpc-service-definition), so gateways and core share one message type system.
 * grpc-js rather than Connect's gRPC transport: about 0.13 ms less CPU per call on the gateway
 * (docs/engineering-tests.md, REST: Benchmark), the largest single cost of a metered call.
 *
 * A failed call rejects with a ConnectError (status, message, response metadata, and the
 * google.rpc.Status details of `grpc-status-details-bin`): the gateways keep one error model
 * (errors.ts reads it), whichever library carried the call.
 */
import { type DescMethod, type DescService, type Message, fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, encodeBinaryHeader } from '@connectrpc/connect';
import { Client, Metadata, type ServiceError, credentials } from '@grpc/grpc-js';
import { GRPC_STATUS_DETAILS_METADATA_KEY, RpcStatusSchema } from '@retail/contract';
import { type GrpcMethodDefinition, grpcServiceDefinition } from '@retail/contract/grpc-service-definition';

/** What every call carries besides its message. */
export interface RpcOptions {
  readonly metadata: Metadata;
  /** Milliseconds from now; sent as `grpc-timeout`, and the call fails with DEADLINE_EXCEEDED after it. */
  readonly timeoutMs: number;
  /** Cancels the call (CANCELLED); an already aborted signal refuses it before anything is sent. */
  readonly signal?: AbortSignal;
}

export interface GrpcCaller {
  unary(method: DescMethod, request: Message, options: RpcOptions): Promise<Message>;
  /** The answers of a server-streaming method as they arrive; leaving the loop early cancels the call. */
  serverStream(method: DescMethod, request: Message, options: RpcOptions): AsyncIterable<Message>;
  /**
   * A server-streaming method read by callback, each message as it arrives (no async iterator, no
   * back-pressure: for a reader that takes each message at once, the call coalescer); resolves when
   * the stream ends, rejects as `unary` does.
   */
  eachMessage(method: DescMethod, request: Message, options: RpcOptions, onMessage: (message: Message) => void): Promise<void>;
  close(): void;
}

/**
 * The method as grpc-js frames it: its path and serializers from the same definition the core's and
 * the watcher's servers are built from (@retail/contract/grpc-service-definition), built once per service.
 */
const definitions = new WeakMap<DescService, Record<string, GrpcMethodDefinition>>();

function definitionOf(method: DescMethod): GrpcMethodDefinition {
  let definition = definitions.get(method.parent);
  if (!definition) {
    definition = grpcServiceDefinition(method.parent);
    definitions.set(method.parent, definition);
  }
  return definition[method.name]!;
}

/**
 * grpc-js reads `grpc-message` with decodeURI, which leaves the escapes of reserved characters
 * (`%3A` for ":", `%2F` for "/"…) that a server percent-encoding the whole message (Connect, other
 * languages) sends; grpc-js's own server leaves those characters as they are. Decoding them here
 * makes the message the server meant either way (a literal "%3A" in a message would read ":").
 */
function statusMessage(details: string | undefined): string {
  return (details ?? '').replace(/%(2[346BCF]|3[ABDF]|40)/gi, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const canceled = () => new ConnectError('the call was canceled before it started', Code.Canceled);

/** A grpc-js failure as the ConnectError the gateways map; anything else through ConnectError.from. */
export function asConnectError(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  const failure = err as Partial<ServiceError>;
  if (typeof failure.code !== 'number' || !(failure.metadata instanceof Metadata)) return ConnectError.from(err);
  const headers = new Headers();
  for (const [key, value] of Object.entries(failure.metadata.getMap())) {
    try {
      headers.set(key, typeof value === 'string' ? value : encodeBinaryHeader(value));
    } catch {
      // A value Headers refuses is not one the mapping reads.
    }
  }
  const error = new ConnectError(statusMessage(failure.details), Number(failure.code), headers, undefined, err);
  const status = failure.metadata.get(GRPC_STATUS_DETAILS_METADATA_KEY)[0];
  if (status instanceof Uint8Array) {
    try {
      for (const any of fromBinary(RpcStatusSchema, status).details) {
        error.details.push({ type: any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1), value: any.value });
      }
    } catch {
      // Undecodable details: the status alone (errors.ts answers 500 for a status without a detail).
    }
  }
  return error;
}

export function createGrpcCaller(address: string, channel: { keepaliveMs: number }): GrpcCaller {
  const client = new Client(address, credentials.createInsecure(), {
    // Pings while calls are open (an idle connection is not pinged), as Connect's transport did.
    'grpc.keepalive_time_ms': channel.keepaliveMs,
    // Answers of any size, as before (grpc-js's client default is 4 MiB).
    'grpc.max_receive_message_length': -1,
    // channelz keeps per-call counters for a debugging service nothing here serves.
    'grpc.enable_channelz': 0,
  });

  /** A server-streaming call with its deadline, cancelled when `signal` aborts; `detach` drops that listener once it ended. */
  function openStream(method: DescMethod, request: Message, { metadata, timeoutMs, signal }: RpcOptions) {
    const { path, requestSerialize, responseDeserialize } = definitionOf(method);
    const call = client.makeServerStreamRequest(path, requestSerialize, responseDeserialize as (bytes: Buffer) => Message, request, metadata, { deadline: Date.now() + timeoutMs });
    const cancel = () => call.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    return { call, detach: () => signal?.removeEventListener('abort', cancel) };
  }

  return {
    unary(method, request, { metadata, timeoutMs, signal }) {
      if (signal?.aborted) return Promise.reject(canceled());
      const { path, requestSerialize, responseDeserialize } = definitionOf(method);
      return new Promise((resolve, reject) => {
        const call = client.makeUnaryRequest(path, requestSerialize, responseDeserialize as (bytes: Buffer) => Message, request, metadata, { deadline: Date.now() + timeoutMs }, (err, response) => {
          signal?.removeEventListener('abort', cancel);
          if (err) reject(asConnectError(err));
          else resolve(response!);
        });
        function cancel() {
          call.cancel();
        }
        signal?.addEventListener('abort', cancel, { once: true });
      });
    },

    async *serverStream(method, request, options) {
      if (options.signal?.aborted) throw canceled();
      const { call, detach } = openStream(method, request, options);
      let ended = false;
      try {
        for await (const message of call) yield message as Message;
        ended = true;
      } catch (err) {
        ended = true;
        throw asConnectError(err);
      } finally {
        detach();
        if (!ended) call.cancel(); // the reader left early: stop the server's stream
      }
    },

    eachMessage(method, request, options, onMessage) {
      if (options.signal?.aborted) return Promise.reject(canceled());
      return new Promise((resolve, reject) => {
        const { call, detach } = openStream(method, request, options);
        call.on('data', onMessage);
        // grpc-js emits 'error' (a failed status) just before 'status'; 'status' alone ends a stream that succeeded.
        call.on('error', (err) => {
          detach();
          reject(asConnectError(err));
        });
        call.on('status', () => {
          detach();
          resolve();
        });
      });
    },

    close: () => client.close(),
  };
}
