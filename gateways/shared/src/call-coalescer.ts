/**
 * Coalesces the unary lookups one gateway process issues in the same event-loop turn into one call
 * of the core's server-streaming BatchLookup (issue 17: the per-call gRPC hop is the largest fixed
 * cost of a metered call, on the gateway and on the core). A turn's lone call goes unary exactly as
 * before; two or more go as one BatchLookup whose `calls` carry each call's request id and trace
 * context, so the core serves each item as that unary call (core/src/grpc/coalesced-calls.ts: its
 * own log line and SERVER span, all items at once, each result streamed as soon as it is known).
 *
 * Each caller gets what its unary call would have given it: its response message, or a ConnectError
 * built by the same asConnectError from the same status code, message and trailers (its
 * ErrorDetail in `grpc-status-details-bin` and `retail-error-bin`); a failure of the whole stream
 * (core gone, token refused) reaches every caller still waiting. Deadlines and aborts stay per
 * caller: the batch carries the latest deadline, each caller times out at its own with
 * DEADLINE_EXCEEDED and an aborted caller settles at once with CANCELLED, as grpc-js answers a
 * unary call; the stream is cancelled once no caller waits for it.
 */
import { type DescMethod, type Message, type MessageInitShape, create, toBinary } from '@bufbuild/protobuf';
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { propagation } from '@opentelemetry/api';
import {
  BATCH_ERROR_FIELD, BATCH_MAX_ITEMS, type BatchItemResult, BatchItemSchema, type CoalescedCallSchema, ERROR_DETAIL_METADATA_KEY, type ErrorDetail, ErrorDetailSchema,
  GRPC_STATUS_DETAILS_METADATA_KEY, REQUEST_ID_METADATA_KEY, RetailService, batchKindOfRpc, encodeErrorStatus, errorRow,
} from '@retail/contract';
import { type GrpcCaller, type RpcOptions, asConnectError } from './grpc-caller.js';

/** How the coalescer sent the calls it took so far (benchmarks and diagnostics read it). */
export interface CoalescingCounts {
  /** Calls that went unary: alone in their turn (or in their priority). */
  unary: number;
  /** BatchLookup calls sent, and the unary calls they carried. */
  batches: number;
  batchedCalls: number;
}

export interface CallCoalescer {
  readonly counts: CoalescingCounts;
  /** Whether `method` may be coalesced: a RetailService lookup a BatchItem can carry. */
  accepts(method: DescMethod): boolean;
  /**
   * Answers as `caller.unary(method, request, options)` would; see the module comment. Only calls of
   * one `group` share a batch (the batch carries its first call's metadata: calls of one priority).
   */
  unary(method: DescMethod, request: Message, options: RpcOptions, group: string): Promise<Message>;
}

interface Waiting {
  readonly method: DescMethod;
  readonly request: Message;
  readonly options: RpcOptions;
  /** Epoch ms of the caller's deadline, fixed when it called. */
  readonly deadlineAt: number;
  readonly resolve: (response: Message) => void;
  readonly reject: (error: unknown) => void;
  /** Set once the caller has its answer; later news about it is dropped. */
  settled: boolean;
  onAbort?: () => void;
}

/** The failure grpc-js gives a unary call, built by the same asConnectError from the same parts. */
const grpcFailure = (code: number, details: string, metadata = new Metadata()) => asConnectError({ code, details, metadata });
const cancelled = () => grpcFailure(GrpcStatus.CANCELLED, 'Cancelled on client');
const deadlineExceeded = (since: number) => grpcFailure(GrpcStatus.DEADLINE_EXCEEDED, `Deadline exceeded after ${((Date.now() - since) / 1000).toFixed(3)}s`);

/**
 * A failed item as its unary call fails: the error table's code, the detail's message, the detail
 * in both trailers (core/src/grpc/status.ts), beside the headers of the trailers-only answer the
 * core gives a failed unary call (grpc-js hands them over with the trailers).
 */
function itemFailure(detail: ErrorDetail) {
  const code = errorRow(detail.reason).grpcCode;
  const metadata = new Metadata();
  metadata.set('content-type', 'application/grpc+proto');
  metadata.set('date', new Date().toUTCString());
  metadata.set(GRPC_STATUS_DETAILS_METADATA_KEY, Buffer.from(encodeErrorStatus(code, detail)));
  metadata.set(ERROR_DETAIL_METADATA_KEY, Buffer.from(toBinary(ErrorDetailSchema, detail)));
  return grpcFailure(code, detail.message, metadata);
}

const noResult = () => grpcFailure(GrpcStatus.INTERNAL, 'the core ended the coalesced batch without this call\'s result');

/** What the unary call's metadata carried for the core besides the batch's own: its request id and trace context. */
function coalescedCall({ metadata }: RpcOptions): MessageInitShape<typeof CoalescedCallSchema> {
  const traceContext: Record<string, string> = {};
  for (const key of propagation.fields()) {
    const value = metadata.get(key)[0];
    if (typeof value === 'string') traceContext[key] = value;
  }
  const requestId = metadata.get(REQUEST_ID_METADATA_KEY)[0];
  return { requestId: typeof requestId === 'string' ? requestId : '', traceContext };
}

export function createCallCoalescer(caller: GrpcCaller): CallCoalescer {
  /** This turn's calls, by group. */
  let queued = new Map<string, Waiting[]>();
  let scheduled = false;
  const counts: CoalescingCounts = { unary: 0, batches: 0, batchedCalls: 0 };

  function settle(waiting: Waiting, outcome: { response: Message } | { error: unknown }): boolean {
    if (waiting.settled) return false;
    waiting.settled = true;
    if (waiting.onAbort) waiting.options.signal?.removeEventListener('abort', waiting.onAbort);
    if ('response' in outcome) waiting.resolve(outcome.response);
    else waiting.reject(outcome.error);
    return true;
  }

  function sendUnary(waiting: Waiting): void {
    if (waiting.settled) return;
    if (waiting.onAbort) waiting.options.signal?.removeEventListener('abort', waiting.onAbort);
    const { method, request, options } = waiting;
    caller.unary(method, request, { ...options, timeoutMs: waiting.deadlineAt - Date.now() }).then(
      (response) => settle(waiting, { response }),
      (error: unknown) => settle(waiting, { error }),
    );
  }

  async function sendBatch(batch: readonly Waiting[]): Promise<void> {
    const started = Date.now();
    const stream = new AbortController();
    let waitingFor = batch.length;
    let deadlineTimer: NodeJS.Timeout | undefined;
    /**
     * Settles one caller. When the last one waiting leaves on its own (its deadline, its abort), the
     * stream is cancelled so the core stops; when the stream answered it, the stream ends by itself
     * (a cancel then would cost both sides an RST_STREAM and an abort for nothing).
     */
    const done = (waiting: Waiting, outcome: { response: Message } | { error: unknown }, left = false) => {
      if (!settle(waiting, outcome) || --waitingFor > 0) return;
      clearTimeout(deadlineTimer);
      if (left) stream.abort();
    };
    /** One timer for the batch, at the earliest deadline of a caller still waiting: each times out at its own. */
    const armDeadline = () => {
      let next = Infinity;
      for (const waiting of batch) if (!waiting.settled) next = Math.min(next, waiting.deadlineAt);
      if (next === Infinity) return;
      deadlineTimer = setTimeout(() => {
        const now = Date.now();
        for (const waiting of batch) if (!waiting.settled && waiting.deadlineAt <= now + 1) done(waiting, { error: deadlineExceeded(started) }, true);
        armDeadline();
      }, Math.max(0, next - Date.now()));
    };
    armDeadline();
    for (const waiting of batch) {
      // The abort listener set when it was queued now settles it through `done`.
      if (waiting.onAbort) waiting.options.signal?.removeEventListener('abort', waiting.onAbort);
      if (waiting.options.signal) {
        waiting.onAbort = () => done(waiting, { error: cancelled() }, true);
        waiting.options.signal.addEventListener('abort', waiting.onAbort, { once: true });
      }
    }
    const request = create(RetailService.method.batchLookup.input, {
      items: batch.map(({ method, request: item }) => create(BatchItemSchema, { request: { case: batchKindOfRpc(method.name)!.itemField.localName, value: item } as never })),
      calls: batch.map(({ options }) => coalescedCall(options)),
    });
    const deadlineAt = Math.max(...batch.map((w) => w.deadlineAt));
    const onMessage = (message: Message) => {
      const result = (message as unknown as { result?: BatchItemResult }).result;
      const waiting = result ? batch[result.index] : undefined;
      if (!result || !waiting) return;
      if (result.result.case === BATCH_ERROR_FIELD.localName) done(waiting, { error: itemFailure(result.result.value as ErrorDetail) });
      else done(waiting, { response: result.result.value as Message });
    };
    try {
      // The first call's metadata (service token, request id, priority): the core logs the batch under it.
      await caller.eachMessage(RetailService.method.batchLookup, request, { metadata: batch[0]!.options.metadata, timeoutMs: deadlineAt - Date.now(), signal: stream.signal }, onMessage);
      for (const waiting of batch) done(waiting, { error: noResult() });
    } catch (error) {
      // Cancelled by us once nobody waited, or failed as a whole: the same failure for everyone still waiting.
      for (const waiting of batch) done(waiting, { error });
    }
  }

  function flush(): void {
    scheduled = false;
    const groups = queued;
    queued = new Map();
    for (const group of groups.values()) {
      const live = group.filter((w) => !w.settled);
      for (let start = 0; start < live.length; start += BATCH_MAX_ITEMS) {
        const batch = live.slice(start, start + BATCH_MAX_ITEMS);
        if (batch.length === 1) {
          counts.unary++;
          sendUnary(batch[0]!);
        } else {
          counts.batches++;
          counts.batchedCalls += batch.length;
          void sendBatch(batch);
        }
      }
    }
  }

  return {
    counts,
    accepts: (method) => method.parent === RetailService && batchKindOfRpc(method.name) !== undefined,

    unary(method, request, options, group) {
      // An aborted signal is refused before anything is queued, exactly as unary refuses it.
      if (options.signal?.aborted) return caller.unary(method, request, options);
      return new Promise<Message>((resolve, reject) => {
        const waiting: Waiting = { method, request, options, deadlineAt: Date.now() + options.timeoutMs, resolve, reject, settled: false };
        if (options.signal) {
          waiting.onAbort = () => settle(waiting, { error: cancelled() });
          options.signal.addEventListener('abort', waiting.onAbort, { once: true });
        }
        const calls = queued.get(group);
        if (calls) calls.push(waiting);
        else queued.set(group, [waiting]);
        if (!scheduled) {
          scheduled = true;
          // After this turn's I/O callbacks and their promise jobs: every call they issued is queued.
          setImmediate(flush);
        }
      });
    },
  };
}
