/**
 * The gateways' client of the backends: the core (RetailService) and the watcher (WatchService),
 * each over one gRPC transport (HTTP/2, Connect's gRPC protocol) with the service token, request
 * id and trace context on every call, and a deadline on every call. A watch operation also carries
 * the caller's account (`x-retail-account`), which the gateway established from the key: the
 * watcher trusts it because the call bears the service token.
 */
import { type DescMethod, type Message, type MessageInitShape, type MessageShape, create } from '@bufbuild/protobuf';
import { type Interceptor, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { context, propagation } from '@opentelemetry/api';
import { Code, ConnectError } from '@connectrpc/connect';
import { type BatchItem, type BatchItemResult, CacheStatus, JobService, MARKETPLACE_HEALTH_SERVICE, RetailService, WatchService } from '@retail/contract';
import { checkCoreHealth, coreHealthStatus, type HealthStatus } from './health.js';
import { traceCoreCall, traceCoreStream } from './tracing.js';
import net from 'node:net';
import type { Operation } from './registry.js';

export interface CoreClientOptions {
  /** host:port of the core's gRPC server. */
  readonly address: string;
  readonly serviceToken: string;
  /** Deadline of every call (CORE_DEADLINE_MS, default 10000). */
  readonly deadlineMs?: number;
  /** host:port of the watcher's gRPC server (WATCHER_ADDRESS); without it watch operations answer UNIMPLEMENTED. */
  readonly watcherAddress?: string;
  /** Deadline of a whole BatchLookup stream (CORE_BATCH_DEADLINE_MS, default 30000). */
  readonly batchDeadlineMs?: number;
}

/** Deadline of a batch when the settings name none: 100 items, 4 at a time, several seconds each on a cold cache. */
export const DEFAULT_BATCH_DEADLINE_MS = 30_000;

/** Metadata key of the account a watch operation acts for. */
export const ACCOUNT_METADATA_KEY = 'x-retail-account';

/** How the response was produced, from the response's `meta` (never part of `data`). */
export interface ResponseInfo {
  readonly cache?: 'HIT' | 'MISS' | 'STALE';
  /** ISO 8601 time the (oldest) page behind the response was retrieved. */
  readonly retrievedAt?: string;
}

export interface CallOptions {
  readonly requestId: string;
  readonly signal?: AbortSignal;
  /** The caller's account: required by watch and job operations, not sent to the core. */
  readonly accountId?: string;
  /**
   * Background work (a bulk job's items): sent as `x-retail-priority: background`, so the core's
   * per-host caps let waiting interactive calls go first.
   */
  readonly background?: boolean;
  /**
   * Deadline of this call, or of a whole stream, instead of the client's (CORE_DEADLINE_MS for a
   * unary call): a job's results download or progress stream lasts as long as the client reads.
   */
  readonly deadlineMs?: number;
}

/** A server-streaming method of a backend service (BatchLookup, StreamJobResults, StreamJobProgress). */
export type StreamingMethod = DescMethod & { readonly methodKind: 'server_streaming' };

/** The longest deadline a call may have (a timer's limit, about 24.8 days). */
export const MAX_DEADLINE_MS = 2 ** 31 - 1;

/** Metadata key and value that mark a core call as background work (core/src/resilience/host-limits.ts). */
export const PRIORITY_METADATA_KEY = 'x-retail-priority';
export const BACKGROUND_PRIORITY = 'background';

export interface CoreClient {
  /** Calls the operation's RPC; rejects with a ConnectError (see errors.ts for the mapping). */
  callOperation(op: Operation, request: Record<string, unknown>, options: CallOptions): Promise<{ response: Message; meta: ResponseInfo }>;
  /**
   * Streams BatchLookup: `onResult` gets each item's result as the core sends it; resolves when the
   * stream ends and rejects (as callOperation does) when it fails as a whole (deadline, core gone).
   */
  streamBatch(items: readonly BatchItem[], options: CallOptions, onResult: (result: BatchItemResult) => void): Promise<void>;
  /**
   * Calls a server-streaming RPC with the same routing, metadata (service token, request id,
   * account, priority, trace context) and errors as callOperation; the deadline covers the whole
   * stream (`deadlineMs`, else the client's). The signal, or leaving the loop early, cancels the
   * call, so the backend stops its stream. The one place the gateways open a stream: streamBatch and
   * the job downloads and progress streams all go through it.
   */
  streamCall<M extends StreamingMethod>(method: M, request: MessageInitShape<M['input']>, options: CallOptions): AsyncIterable<MessageShape<M['output']>>;
  /** grpc.health.v1 Check of the core, for /readyz: true when it answers SERVING. */
  ping(signal?: AbortSignal): Promise<boolean>;
  /**
   * Whether the core reaches the marketplace (its health entry `retail.marketplace`): SERVING,
   * NOT_SERVING while every host it tried was unreachable, UNKNOWN before its first fetch. For the
   * body of /readyz; never a reason to be unready (docs/resilience.md, Readiness).
   */
  marketplaceHealth(signal?: AbortSignal): Promise<HealthStatus>;
}

const CACHE_NAMES: Partial<Record<CacheStatus, ResponseInfo['cache']>> = {
  [CacheStatus.HIT]: 'HIT',
  [CacheStatus.MISS]: 'MISS',
  [CacheStatus.STALE]: 'STALE',
};

/** Reads `meta` (ResponseMeta) off a response message. */
export function responseInfo(response: Message): ResponseInfo {
  const meta = (response as unknown as { meta?: { cache: CacheStatus; retrievedAt?: { seconds: bigint; nanos: number } } }).meta;
  if (!meta) return {};
  const cache = CACHE_NAMES[meta.cache];
  const at = meta.retrievedAt;
  const retrievedAt = at ? new Date(Number(at.seconds) * 1000 + Math.floor(at.nanos / 1e6)).toISOString() : undefined;
  return { ...(cache ? { cache } : {}), ...(retrievedAt ? { retrievedAt } : {}) };
}

function connectNoDelay(authority: URL): net.Socket {
  const socket = net.connect({ host: authority.hostname, port: Number(authority.port) || 80 });
  socket.setNoDelay(true);
  return socket;
}

type UnaryCalls = Record<string, (request: Message, callOptions: object) => Promise<Message>>;
type StreamCalls = Record<string, (request: Message, callOptions: object) => AsyncIterable<Message>>;

export function createCoreClient(options: CoreClientOptions): CoreClient {
  const authorization = `Bearer ${options.serviceToken}`;
  const serviceHeaders: Interceptor = (next) => async (req) => {
    req.header.set('authorization', authorization);
    // Forwards the active trace context (a no-op unless the app registered a propagator).
    propagation.inject(context.active(), req.header, {
      set: (carrier, key, value) => carrier.set(key, value),
    });
    return next(req);
  };
  const transportTo = (address: string) =>
    createGrpcTransport({
      baseUrl: `http://${address}`,
      interceptors: [serviceHeaders],
      defaultTimeoutMs: options.deadlineMs ?? 10_000,
      pingIntervalMs: 30_000,
      // Inside the cluster, compressing a few kB costs more CPU than the bytes it saves.
      acceptCompression: [],
      // Small gRPC frames must not wait for Nagle's algorithm (it adds delayed-ACK stalls per call).
      nodeOptions: { createConnection: (authority: URL) => connectNoDelay(authority) },
    });
  const clients = new Map<string, UnaryCalls>([[RetailService.typeName, createClient(RetailService, transportTo(options.address)) as unknown as UnaryCalls]]);
  if (options.watcherAddress) {
    // The watcher serves the watch and the job operations on one address.
    const watcher = transportTo(options.watcherAddress);
    clients.set(WatchService.typeName, createClient(WatchService, watcher) as unknown as UnaryCalls);
    clients.set(JobService.typeName, createClient(JobService, watcher) as unknown as UnaryCalls);
  }
  const deadlineMs = options.deadlineMs ?? 10_000;

  /** The client of a method's service and the metadata of one call (the account for the watcher's services). */
  function prepare(method: DescMethod, { requestId, accountId, background }: CallOptions): { client: UnaryCalls; headers: Record<string, string> } {
    const service = method.parent.typeName;
    const client = clients.get(service);
    if (!client) throw new ConnectError(`${method.name} is not served by this deployment: its ${service} address (WATCHER_ADDRESS) is not configured`, Code.Unimplemented);
    const headers: Record<string, string> = { 'x-request-id': requestId };
    if (background) headers[PRIORITY_METADATA_KEY] = BACKGROUND_PRIORITY;
    if (service !== RetailService.typeName) {
      if (!accountId) throw new Error(`${method.name} needs the caller's account`);
      headers[ACCOUNT_METADATA_KEY] = accountId;
    }
    return { client, headers };
  }

  async function* openStream(method: DescMethod, request: Message, callOptions: CallOptions): AsyncGenerator<Message> {
    const { client, headers } = prepare(method, callOptions);
    const call = (client as unknown as StreamCalls)[method.localName];
    if (!call) throw new Error(`the client has no method ${method.localName}`);
    // Our own signal as well as the caller's: leaving the loop early must end the backend's stream.
    const controller = new AbortController();
    const stop = () => controller.abort();
    callOptions.signal?.addEventListener('abort', stop, { once: true });
    if (callOptions.signal?.aborted) stop();
    let ended = false;
    try {
      yield* call(request, { timeoutMs: Math.min(callOptions.deadlineMs ?? deadlineMs, MAX_DEADLINE_MS), headers, signal: controller.signal });
      ended = true;
    } finally {
      callOptions.signal?.removeEventListener('abort', stop);
      if (!ended) controller.abort();
    }
  }

  const client: CoreClient = {
    async callOperation(op, request, callOptions) {
      const { client: calls, headers } = prepare(op.method, callOptions);
      const call = calls[op.method.localName];
      if (!call) throw new Error(`the client has no method ${op.method.localName}`);
      const message = create(op.request, request);
      const { signal } = callOptions;
      const response = await traceCoreCall(op.method.name, () =>
        call(message, {
          timeoutMs: callOptions.deadlineMs ?? deadlineMs,
          headers,
          ...(signal ? { signal } : {}),
        }),
      );
      return { response, meta: responseInfo(response) };
    },
    streamCall(method, request, callOptions) {
      return traceCoreStream(method, () => openStream(method, create(method.input, request), callOptions)) as AsyncIterable<MessageShape<(typeof method)['output']>>;
    },
    async streamBatch(items, callOptions, onResult) {
      const stream = client.streamCall(RetailService.method.batchLookup, { items: [...items] }, { ...callOptions, deadlineMs: callOptions.deadlineMs ?? options.batchDeadlineMs ?? DEFAULT_BATCH_DEADLINE_MS });
      for await (const response of stream) if (response.result) onResult(response.result);
    },
    ping(signal) {
      return checkCoreHealth(options.address, authorization, signal);
    },
    marketplaceHealth(signal) {
      return coreHealthStatus(options.address, authorization, { service: MARKETPLACE_HEALTH_SERVICE, ...(signal ? { signal } : {}) });
    },
  };
  return client;
}
