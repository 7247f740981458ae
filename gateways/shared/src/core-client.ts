/**
 * The gateways' client of the backends: the core (RetailService) and the watcher (WatchService, JobService),
 * each over one gRPC channel (@grpc/grpc-js: grpc-caller.ts) with the service token, request id and
 * trace context on every call, and a deadline on every call. A watch operation also carries the
 * caller's account (`x-retail-account`), which the gateway established from the key: the watcher
 * trusts it because the call bears the service token. With `coalesce` (CORE_COALESCE), the lookups
 * issued in one event-loop turn reach the core as one BatchLookup, each caller answered as its
 * unary call would be (call-coalescer.ts).
 */
import { type DescMethod, type Message, type MessageInitShape, type MessageShape, create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { Metadata } from '@grpc/grpc-js';
import { context, propagation, trace } from '@opentelemetry/api';
import {
  ARCHIVE_METADATA_KEY, ArchivedPageService, BACKGROUND_PRIORITY, type BatchItem, type BatchItemResult, CacheStatus, type DataIncident, DataIncidentService, dataIncidentStateName, type DataIncidentStateName,
  DataHealthService, FRESH_READ, PageArchiveService, JobService, MARKETPLACE_HEALTH_SERVICE, PRIORITY_METADATA_KEY, READ_METADATA_KEY, REQUEST_ID_METADATA_KEY, RetailService, WATCH_REFRESH_ARCHIVE, WatchService,
} from '@retail/contract';
import { type CoalescingCounts, createCallCoalescer } from './call-coalescer.js';
import { type GrpcCaller, createGrpcCaller } from './grpc-caller.js';
import { checkCoreHealth, coreHealthStatus, type HealthStatus } from './health.js';
import { traceCoreCall, traceCoreStream } from './tracing.js';
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
  /**
   * Lookups issued in the same event-loop turn go to the core as one BatchLookup (call-coalescer.ts;
   * CORE_COALESCE, on in the gateways' settings). Off unless set: other users of the client (the
   * watcher, the console) call unary.
   */
  readonly coalesce?: boolean;
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
  /** The data incident over the pages behind the response (docs/data-health.md), when there is one. */
  readonly dataIncident?: DataIncidentInfo;
}

/** A data incident as clients see it: `X-Data-Incident`, GraphQL `extensions.dataIncident`, MCP `_meta.dataIncident`. */
export interface DataIncidentInfo {
  readonly state: DataIncidentStateName;
  readonly kind: string;
  readonly fields: readonly string[];
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
   * Read the pages past the core's page cache (`x-retail-read: fresh`): the watcher's confirmation
   * read. Never coalesced; no gateway sets it for a client.
   */
  readonly freshRead?: boolean;
  /**
   * A watch's refresh read (`x-retail-archive: watch-refresh`): the core keeps every page it fetches
   * for the call in the page archive (docs/page-archive.md), so history can be re-derived from them.
   * Never coalesced (a batch carries its first call's metadata); no gateway sets it for a client.
   */
  readonly watchRefresh?: boolean;
  /** This call's deadline in ms, when it is not the client's (a whole stream's, for instance). */
  readonly deadlineMs?: number;
}

/** A server-streaming method of a backend service (BatchLookup, StreamJobResults, StreamJobProgress). */
export type StreamingMethod = DescMethod & { readonly methodKind: 'server_streaming' };
export type UnaryMethod = DescMethod & { readonly methodKind: 'unary' };

/** The longest deadline a call may have (a timer's limit, about 24.8 days). */
export const MAX_DEADLINE_MS = 2 ** 31 - 1;

export interface CoreClient {
  /** Calls the operation's RPC; rejects with a ConnectError (see errors.ts for the mapping). */
  callOperation(op: Operation, request: Record<string, unknown>, options: CallOptions): Promise<{ response: Message; meta: ResponseInfo }>;
  /**
   * Calls a server-streaming RPC with the same metadata, deadline (for the whole stream), routing
   * and errors as callOperation; the signal, or leaving the loop early, cancels it.
   */
  streamCall<M extends StreamingMethod>(method: M, request: MessageInitShape<M['input']>, options: CallOptions): AsyncIterable<MessageShape<M['output']>>;
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
  /**
   * Calls a unary RPC that is no client-facing operation (DataHealthService: the watcher reads the
   * incident log, the gateways the data status) with the same routing, metadata and errors as
   * callOperation, never coalesced.
   */
  unaryCall<M extends UnaryMethod>(method: M, request: MessageInitShape<M['input']>, options: CallOptions): Promise<MessageShape<M['output']>>;
  /** How the lookups went to the core when coalescing is on (call-coalescer.ts); undefined when off. */
  coalescing(): Readonly<CoalescingCounts> | undefined;
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
  const meta = (response as unknown as { meta?: { cache: CacheStatus; retrievedAt?: { seconds: bigint; nanos: number }; dataIncident?: DataIncident } }).meta;
  if (!meta) return {};
  const cache = CACHE_NAMES[meta.cache];
  const at = meta.retrievedAt;
  const retrievedAt = at ? new Date(Number(at.seconds) * 1000 + Math.floor(at.nanos / 1e6)).toISOString() : undefined;
  const state = meta.dataIncident && dataIncidentStateName(meta.dataIncident.state);
  const dataIncident = state && state !== 'healthy' ? { state, kind: meta.dataIncident!.kind, fields: [...meta.dataIncident!.fields] } : undefined;
  return { ...(cache ? { cache } : {}), ...(retrievedAt ? { retrievedAt } : {}), ...(dataIncident ? { dataIncident } : {}) };
}

/** Services whose calls act for an account (`x-retail-account`): the watcher serves the watch and the job operations on one address. */
const ACCOUNT_SERVICES: ReadonlySet<string> = new Set([WatchService.typeName, JobService.typeName]);

const metadataSetter = { set: (carrier: Metadata, key: string, value: string) => carrier.set(key, value) };

export function createCoreClient(options: CoreClientOptions): CoreClient {
  const authorization = `Bearer ${options.serviceToken}`;
  const timeoutMs = options.deadlineMs ?? 10_000;
  const channel = { keepaliveMs: 30_000 };
  const core = createGrpcCaller(options.address, channel);
  const callers = new Map<string, GrpcCaller>([[RetailService.typeName, core], [DataHealthService.typeName, core], [PageArchiveService.typeName, core]]);
  const coalescer = options.coalesce ? createCallCoalescer(core) : undefined;
  if (options.watcherAddress) {
    const watcher = createGrpcCaller(options.watcherAddress, channel);
    for (const service of ACCOUNT_SERVICES) callers.set(service, watcher);
    // The kept data incidents (the status page): the watcher's, for no account in particular.
    callers.set(DataIncidentService.typeName, watcher);
    // The page archive's pages (the console's operator view): the watcher keeps them.
    callers.set(ArchivedPageService.typeName, watcher);
  }

  /** The backend of a method, and the metadata of one call to it (inside the call's span: its traceparent). */
  function prepare(method: DescMethod, { requestId, accountId, background, freshRead, watchRefresh }: CallOptions): { caller: GrpcCaller; metadata: Metadata } {
    const service = method.parent.typeName;
    const caller = callers.get(service);
    if (!caller) throw new ConnectError(`${method.name} is not served by this deployment: its ${service} address (WATCHER_ADDRESS) is not configured`, Code.Unimplemented);
    const metadata = new Metadata();
    metadata.set('authorization', authorization);
    metadata.set(REQUEST_ID_METADATA_KEY, requestId);
    if (background) metadata.set(PRIORITY_METADATA_KEY, BACKGROUND_PRIORITY);
    if (freshRead) metadata.set(READ_METADATA_KEY, FRESH_READ);
    if (watchRefresh) metadata.set(ARCHIVE_METADATA_KEY, WATCH_REFRESH_ARCHIVE);
    if (ACCOUNT_SERVICES.has(service)) {
      if (!accountId) throw new Error(`${method.name} needs the caller's account`);
      metadata.set(ACCOUNT_METADATA_KEY, accountId);
    }
    // Forwards the active trace context (a no-op unless the app registered a propagator).
    propagation.inject(context.active(), metadata, metadataSetter);
    return { caller, metadata };
  }

  const rpcOptions = (metadata: Metadata, { signal, deadlineMs }: CallOptions) => ({ metadata, timeoutMs: deadlineMs ?? timeoutMs, ...(signal ? { signal } : {}) });

  function streamCall<M extends StreamingMethod>(method: M, request: MessageInitShape<M['input']>, callOptions: CallOptions): AsyncIterable<MessageShape<M['output']>> {
    return traceCoreStream(method, () => {
      const { caller, metadata } = prepare(method, callOptions);
      return caller.serverStream(method, create(method.input, request), rpcOptions(metadata, callOptions));
    }) as AsyncIterable<MessageShape<M['output']>>;
  }

  return {
    async callOperation(op, request, callOptions) {
      const response = await traceCoreCall(op.method, async () => {
        const { caller, metadata } = prepare(op.method, callOptions);
        const message = create(op.request, request);
        const options = rpcOptions(metadata, callOptions);
        // Calls coalesce with calls of their own priority only: a batch carries one x-retail-priority.
        if (coalescer?.accepts(op.method) && !callOptions.freshRead && !callOptions.watchRefresh) return coalescer.unary(op.method, message, options, callOptions.background ? BACKGROUND_PRIORITY : '');
        return caller.unary(op.method, message, options);
      });
      return { response, meta: responseInfo(response) };
    },
    streamCall,
    async unaryCall(method, request, callOptions) {
      const send = async () => {
        const { caller, metadata } = prepare(method, callOptions);
        return caller.unary(method, create(method.input, request), rpcOptions(metadata, callOptions));
      };
      // Traced inside a request's trace (GET /api/status); a background poll (the watcher's read of
      // the incident log every 5 s) would open a trace of its own every time, so it opens none.
      return (trace.getActiveSpan() ? traceCoreCall(method, send) : send()) as Promise<MessageShape<typeof method['output']>>;
    },
    async streamBatch(items, callOptions, onResult) {
      const stream = streamCall(RetailService.method.batchLookup, { items: [...items] }, { ...callOptions, deadlineMs: callOptions.deadlineMs ?? options.batchDeadlineMs ?? DEFAULT_BATCH_DEADLINE_MS });
      for await (const response of stream) if (response.result) onResult(response.result);
    },
    coalescing: () => coalescer?.counts,
    ping(signal) {
      return checkCoreHealth(options.address, authorization, signal);
    },
    marketplaceHealth(signal) {
      return coreHealthStatus(options.address, authorization, { service: MARKETPLACE_HEALTH_SERVICE, ...(signal ? { signal } : {}) });
    },
  };
}
