/**
 * The gateways' core client coalescing (gateways/shared/src/call-coalescer.ts) against the real core on a free port (the
 * in-process core, its dispatch, validation and BatchLookup, with probe handlers), compared with
 * the same calls sent unary by a client with coalescing off: each caller's answer and error are the
 * unary call's, one failing item fails no other, a slow item holds no other back, deadlines and
 * aborts stay per caller, a lone call and every call of a client with the switch off go unary, and
 * each call keeps its request id at the core. The stub core (which records each item's metadata)
 * shows the request id, trace context and deadline each coalesced call carries.
 */
import { toJson } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { CacheStatus, ErrorDetailSchema, ErrorReason, GetProductResponseSchema, type GetProductRequest, ProductSchema, RetailService, WatchService } from '@retail/contract';
import { CoreError, HANDLERS, type HandlerTable, type PageFetcher } from '@retail/core';
import { create } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreClient, createCoreClient, errorDetailOf, mapCoreError, registryOperation } from '@retail/gateway-shared';
import { type StartedCore, startCore } from '../harness/core.js';
import { type StubCore, startStubCore } from '../harness/stub-core.js';

const product = registryOperation('GetProduct');
const noPages: PageFetcher = { fetchPage: async () => { throw new Error('no page in this test'); } };

/** The request id each ASIN's run saw at the core (its logger's and its span's). */
const requestIds = new Map<string, string[]>();
/** How many runs of the slow ASIN the call's abort stopped at the core. */
let stoppedRuns = 0;

const handlers: HandlerTable = {
  ...HANDLERS,
  GetProduct: async (request, context) => {
    const asin = request.lookup.kind === 'asin' ? request.lookup.asin : request.lookup.gtin;
    requestIds.set(asin, [...(requestIds.get(asin) ?? []), context.requestId]);
    if (asin === 'B0NOTFOUND') throw new CoreError(ErrorReason.NOT_FOUND, 'the marketplace has no product with this asin');
    if (asin === 'B0BLOCKED1') throw new CoreError(ErrorReason.UPSTREAM_BLOCKED, 'blocked: 50% of tries', { retryAfterSeconds: 7 });
    if (asin === 'B0CRASHED1') throw new Error('internals nobody may read');
    if (asin === 'B0000SLOW1') {
      await new Promise((resolve, reject) => {
        setTimeout(resolve, 400);
        context.signal.addEventListener('abort', () => {
          stoppedRuns++;
          reject(context.signal.reason);
        }, { once: true });
      });
    }
    return { retailProduct: { asin, title: `product ${asin}`, ratingsTotal: 3n }, meta: { cache: CacheStatus.HIT } };
  },
};

let core: StartedCore;
let coalescing: CoreClient;
let unary: CoreClient;

beforeAll(async () => {
  core = await startCore({ pages: noPages, handlers });
  coalescing = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 5000, coalesce: true });
  unary = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 5000 });
});
afterAll(async () => {
  await core?.stop();
});

/** What a caller can observe of a call's outcome: the message, or the error's code, message, detail, trailers and client-facing mapping. */
async function outcome(call: Promise<{ response: unknown; meta: unknown }>) {
  try {
    const { response, meta } = await call;
    return { response: toJson(GetProductResponseSchema, response as never), meta };
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectError);
    const e = error as ConnectError;
    const { cause: _cause, ...mapped } = mapCoreError(e, product, 'rest');
    // The `date` header's value is the second the answer left: its presence is what is compared.
    const trailers = [...e.metadata.entries()].map(([key, value]) => [key, key === 'date' ? 'a date' : value]).sort();
    return { code: e.code, message: e.rawMessage, detail: errorDetailOf(e), trailers, mapped };
  }
}

const call = (client: CoreClient, asin: string, options: { requestId?: string; deadlineMs?: number; signal?: AbortSignal } = {}) =>
  client.callOperation(product, { asin }, { requestId: options.requestId ?? `req-${asin}`, ...options });

const ASINS = ['B0TEST0001', 'B0NOTFOUND', 'B0BLOCKED1', 'B0CRASHED1', 'not-an-asin', 'B0TEST0002'];

describe('coalescing the lookups of one event-loop turn', () => {
  it('answers every caller exactly as its unary call, successes and failures alike, in one BatchLookup', async () => {
    const before = { ...coalescing.coalescing()! };
    const coalesced = await Promise.all(ASINS.map((asin) => outcome(call(coalescing, asin))));
    expect(coalescing.coalescing()).toEqual({ ...before, batches: before.batches + 1, batchedCalls: before.batchedCalls + ASINS.length });
    const alone = [];
    for (const asin of ASINS) alone.push(await outcome(call(unary, asin)));
    expect(coalesced).toEqual(alone);
    // One failing item failed no other: the two good ones answered, each failure is its own.
    expect(coalesced.map((o) => ('code' in o ? o.code : 'ok'))).toEqual(['ok', Code.NotFound, Code.Unavailable, Code.Internal, Code.InvalidArgument, 'ok']);
    expect(coalesced[3]).toMatchObject({ mapped: { status: 500, message: 'internal error' } });
    expect(coalesced[2]).toMatchObject({ mapped: { status: 503, retryAfterSeconds: 7 } });
  });

  it('keeps each call\'s request id at the core', async () => {
    requestIds.clear();
    await Promise.all([call(coalescing, 'B0TEST0003', { requestId: 'first' }), call(coalescing, 'B0TEST0004', { requestId: 'second' })]);
    expect(Object.fromEntries(requestIds)).toEqual({ B0TEST0003: ['first'], B0TEST0004: ['second'] });
  });

  it('runs identical concurrent calls each as their own call, as unary calls would', async () => {
    requestIds.clear();
    const answers = await Promise.all([call(coalescing, 'B0TEST0005', { requestId: 'a' }), call(coalescing, 'B0TEST0005', { requestId: 'b' })]);
    expect(requestIds.get('B0TEST0005')?.sort()).toEqual(['a', 'b']);
    expect(answers.map((a) => a.meta)).toEqual([{ cache: 'HIT' }, { cache: 'HIT' }]);
  });

  it('answers a fast call while a slow one of the same batch still runs', async () => {
    const started = Date.now();
    const slow = call(coalescing, 'B0000SLOW1');
    const fast = await call(coalescing, 'B0TEST0006').then(() => Date.now() - started);
    expect(fast).toBeLessThan(250);
    await slow;
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('times each caller out at its own deadline (DEADLINE_EXCEEDED, a 504) while the others answer', async () => {
    const started = Date.now();
    const [late, onTime] = await Promise.all([outcome(call(coalescing, 'B0000SLOW1', { deadlineMs: 100 })), outcome(call(coalescing, 'B0TEST0007'))]);
    expect(Date.now() - started).toBeLessThan(390); // the batch's own deadline is the later one: nobody waited for the slow item
    expect(late).toMatchObject({ code: Code.DeadlineExceeded, trailers: [], mapped: { status: 504 } });
    expect(onTime).toMatchObject({ response: { retailProduct: { asin: 'B0TEST0007' } } });
    const alone = await outcome(call(unary, 'B0000SLOW1', { deadlineMs: 100 }));
    expect(alone).toMatchObject({ code: late.code, mapped: (late as { mapped: unknown }).mapped });
  });

  it('settles an aborted caller at once with CANCELLED, as its unary call, and stops the core once nobody waits', async () => {
    stoppedRuns = 0;
    const controller = new AbortController();
    const started = Date.now();
    const aborted = outcome(call(coalescing, 'B0000SLOW1', { signal: controller.signal }));
    const other = outcome(call(coalescing, 'B0TEST0008'));
    setTimeout(() => controller.abort(), 50);
    expect(await other).toMatchObject({ response: { retailProduct: { asin: 'B0TEST0008' } } });
    const cancelled = await aborted;
    expect(Date.now() - started).toBeLessThan(300);
    const unaryController = new AbortController();
    const alone = outcome(call(unary, 'B0000SLOW1', { signal: unaryController.signal }));
    setTimeout(() => unaryController.abort(), 50);
    expect(cancelled).toEqual(await alone);
    expect(cancelled).toMatchObject({ code: Code.Canceled });
    // The batch was cancelled once its last caller left: the slow run stopped at the core, as the unary one did.
    await expect.poll(() => stoppedRuns, { timeout: 2000 }).toBe(2);
    // An already aborted signal is refused before anything is sent, as unary refuses it.
    expect(await outcome(call(coalescing, 'B0TEST0009', { signal: controller.signal }))).toEqual(await outcome(call(unary, 'B0TEST0009', { signal: controller.signal })));
  });

  it('sends a lone call unary, and more than 100 as batches of at most 100', async () => {
    const before = { ...coalescing.coalescing()! };
    await call(coalescing, 'B0TEST0010');
    expect(coalescing.coalescing()).toEqual({ ...before, unary: before.unary + 1 });
    await Promise.all(Array.from({ length: 101 }, (_, i) => call(coalescing, `B0TEST${String(i).padStart(4, '0')}`)));
    expect(coalescing.coalescing()).toEqual({ ...before, unary: before.unary + 2, batches: before.batches + 1, batchedCalls: before.batchedCalls + 100 });
  });

  it('fails every caller of a batch the core refuses as a whole as their unary calls fail (a wrong service token, an unreachable core)', async () => {
    for (const [address, token] of [[core.address, 'not-the-token'], ['127.0.0.1:1', core.token]] as const) {
      const options = { address, serviceToken: token, deadlineMs: 2000 };
      const client = createCoreClient({ ...options, coalesce: true });
      const coalesced = await Promise.all(['B0TEST0001', 'B0TEST0002'].map((asin) => outcome(call(client, asin))));
      expect(client.coalescing()).toMatchObject({ batches: 1, batchedCalls: 2 });
      const alone = await outcome(call(createCoreClient(options), 'B0TEST0001'));
      for (const each of coalesced) expect({ ...each, message: undefined }).toEqual({ ...alone, message: undefined });
    }
  });

  it('refuses a coalesced batch whose calls do not match its items one for one, as a whole (INVALID_ARGUMENT on calls)', async () => {
    const client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
    const items = ['B0TEST0001', 'B0TEST0002'].map((asin) => ({ request: { case: 'product' as const, value: { asin } } }));
    const read = async () => {
      for await (const message of client.batchLookup({ items, calls: [{ requestId: 'only-one' }] }, { headers: { authorization: `Bearer ${core.token}` } })) void message;
    };
    const error = await read().then(() => expect.unreachable('the stream succeeded'), (e: unknown) => ConnectError.from(e));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.findDetails(ErrorDetailSchema)[0]).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['calls'] });
  });

  it('is off unless asked: the client without the switch sends every call unary', () => {
    expect(unary.coalescing()).toBeUndefined();
  });
});

describe('what each coalesced call carries to the core', () => {
  let stub: StubCore;
  const TOKEN = 'coalescer-test-token';
  /** The RPC each GetProduct item reached the stub in: GetProduct (unary) or BatchLookup. */
  const carriers: string[] = [];

  beforeAll(async () => {
    stub = await startStubCore({
      serviceToken: TOKEN,
      handlers: {
        GetProduct: (req, ctx) => {
          carriers.push(ctx.method.name);
          return { retailProduct: create(ProductSchema, { asin: (req as GetProductRequest).asin ?? '' }) };
        },
      },
    });
  });
  afterAll(() => stub?.close());

  it('carries each call\'s request id and trace context (its own CLIENT span), the latest deadline on the batch', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
    try {
      const client = createCoreClient({ address: stub.address, serviceToken: TOKEN, deadlineMs: 5000, coalesce: true });
      carriers.length = 0;
      const seen = stub.calls.length;
      await Promise.all([
        client.callOperation(product, { asin: 'B0TEST0001' }, { requestId: 'one', deadlineMs: 1000 }),
        client.callOperation(product, { asin: 'B0TEST0002' }, { requestId: 'two' }),
      ]);
      expect(carriers).toEqual(['BatchLookup', 'BatchLookup']);
      const spans = exporter.getFinishedSpans().filter((s) => s.name === `${RetailService.typeName}/GetProduct`);
      expect(spans).toHaveLength(2);
      const calls = stub.calls.slice(seen).sort((a, b) => a.headers.get('x-request-id')!.localeCompare(b.headers.get('x-request-id')!));
      expect(calls.map((c) => c.headers.get('x-request-id'))).toEqual(['one', 'two']);
      const traceparents = calls.map((c) => c.headers.get('traceparent'));
      expect(new Set(traceparents).size).toBe(2);
      expect(traceparents.sort()).toEqual(spans.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`).sort());
      const timeout = Number(/^(\d+)m$/.exec(calls[0]!.headers.get('grpc-timeout') ?? '')?.[1]);
      expect(timeout).toBeGreaterThan(4000);
      expect(calls[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    } finally {
      await provider.shutdown();
      trace.disable();
    }
  });

  it('sends every call unary when the switch is off', async () => {
    const client = createCoreClient({ address: stub.address, serviceToken: TOKEN, coalesce: false });
    carriers.length = 0;
    await Promise.all([client.callOperation(product, { asin: 'B0TEST0001' }, { requestId: 'r' }), client.callOperation(product, { asin: 'B0TEST0002' }, { requestId: 'r' })]);
    expect(carriers).toEqual(['GetProduct', 'GetProduct']);
  });

  it('never coalesces what a batch item cannot carry: other lookups, watch operations', async () => {
    const client = createCoreClient({ address: stub.address, serviceToken: TOKEN, coalesce: true });
    const before = { ...client.coalescing()! };
    await Promise.allSettled([1, 2].map(() => client.callOperation(registryOperation('GetSeller'), { sellerId: 'A1B2C3D4E5F6G7' }, { requestId: 'r' })));
    expect(client.coalescing()).toEqual(before);
    expect(stub.calls.slice(-2).map((c) => c.method)).toEqual(['GetSeller', 'GetSeller']);
    expect(WatchService.methods.some((m) => m.name === 'GetWatch')).toBe(true);
    await Promise.allSettled([1, 2].map(() => client.callOperation(registryOperation('GetWatch'), { id: 'w-1' }, { requestId: 'r', accountId: 'a' })));
    expect(client.coalescing()).toEqual(before);
  });
});
