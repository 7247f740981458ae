/**
 * The core client (@grpc/grpc-js) against gRPC servers it did not come with: the stub core
 * (Connect's server) for unary calls — messages, metadata sent, statuses and their ErrorDetail,
 * trailers-only answers, deadlines, aborts, an unreachable core, answers larger than the HTTP/2
 * flow-control windows, the trace context — and a grpc-js server of WatchService's
 * StreamWatchEvents for server-streaming calls (client-streaming-free routing to the watcher).
 */
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { BatchItemSchema, CacheStatus, ErrorReason, type GetProductRequest, ProductSchema, RetailService } from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCoreClient } from './core-client.js';
import { errorDetailOf, mapCoreError } from './errors.js';
import { registryOperation } from './registry.js';
import { type StubCore, coreError, startStubCore } from '../../../test/harness/stub-core.js';

const TOKEN = 'core-client-test-token';
const product = registryOperation('GetProduct');
const BIG = 'x'.repeat(300_000); // several stream windows (64 KiB by default)
let core: StubCore;
const cancelled: string[] = [];

beforeAll(async () => {
  core = await startStubCore({
    serviceToken: TOKEN,
    handlers: {
      GetProduct: async (req, ctx) => {
        const { asin } = req as GetProductRequest;
        if (asin === 'B000000404') throw coreError(ErrorReason.NOT_FOUND, 'no product with this identifier');
        if (asin === 'B000000429') throw coreError(ErrorReason.UPSTREAM_BLOCKED, 'blocked: 50% of tries', [], 7);
        if (asin === 'B00000NEW1') throw coreError(ErrorReason.INVALID_ARGUMENT, 'asin is malformed', ['asin'], undefined, 'standard');
        if (asin === 'B00000OLD1') throw coreError(ErrorReason.INVALID_ARGUMENT, 'asin is malformed', ['asin'], undefined, 'legacy');
        if (asin === 'B0000SLOW1') await new Promise((resolve) => setTimeout(resolve, 400));
        if (asin === 'B0000HANG1') {
          // Held until the call is cancelled: what the client's leaving must do to the server's stream.
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
          cancelled.push(asin);
        }
        const title = asin === 'B00000BIG1' ? BIG : 'Kettle';
        return { retailProduct: create(ProductSchema, { asin, title, ratingsTotal: 3n }), meta: { cache: CacheStatus.HIT } };
      },
    },
  });
});
afterAll(() => core?.close());

/** The `grpc-timeout` the server saw, in ms (what is left of the deadline when the call went out). */
function timeoutMs(headers: Headers): number {
  const match = /^(\d+)m$/.exec(headers.get('grpc-timeout') ?? '');
  return match ? Number(match[1]) : NaN;
}

async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  const error = await promise.then(() => expect.unreachable('the call succeeded'), (e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectError);
  return error as ConnectError;
}

describe('createCoreClient', () => {
  const client = () => createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000 });

  it('sends the request with the service token, request id and deadline, and reads the answer and its meta', async () => {
    const { response, meta } = await client().callOperation(product, { asin: 'B0TEST0001' }, { requestId: 'req-1' });
    expect((response as unknown as { retailProduct: { asin: string; title: string; ratingsTotal: bigint } }).retailProduct).toMatchObject({
      asin: 'B0TEST0001',
      title: 'Kettle',
      ratingsTotal: 3n,
    });
    expect(meta).toEqual({ cache: 'HIT' });
    const seen = core.calls.at(-1)!;
    expect(seen.method).toBe('GetProduct');
    expect(seen.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(seen.headers.get('x-request-id')).toBe('req-1');
    expect(timeoutMs(seen.headers)).toBeGreaterThan(4000);
    expect(timeoutMs(seen.headers)).toBeLessThanOrEqual(5000);
  });

  it('marks a fresh read with x-retail-read: fresh, even with coalescing on, and no other call', async () => {
    const coalescing = createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000, coalesce: true });
    await coalescing.callOperation(product, { asin: 'B0TEST0002' }, { requestId: 'fresh-1', freshRead: true });
    const fresh = core.calls.at(-1)!;
    expect([fresh.method, fresh.headers.get('x-retail-read')]).toEqual(['GetProduct', 'fresh']);
    await client().callOperation(product, { asin: 'B0TEST0003' }, { requestId: 'plain-1' });
    expect(core.calls.at(-1)!.headers.get('x-retail-read')).toBeNull();
  });

  it('marks a watch refresh with x-retail-archive: watch-refresh, even with coalescing on, and no other call', async () => {
    const coalescing = createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000, coalesce: true });
    await coalescing.callOperation(product, { asin: 'B0TEST0004' }, { requestId: 'refresh-1', watchRefresh: true });
    const marked = core.calls.at(-1)!;
    expect([marked.method, marked.headers.get('x-retail-archive')]).toEqual(['GetProduct', 'watch-refresh']);
    await client().callOperation(product, { asin: 'B0TEST0005' }, { requestId: 'plain-2' });
    expect(core.calls.at(-1)!.headers.get('x-retail-archive')).toBeNull();
  });

  it('reads answers larger than the flow-control windows, many at once on one connection', async () => {
    const c = client();
    const answers = await Promise.all(Array.from({ length: 8 }, () => c.callOperation(product, { asin: 'B00000BIG1' }, { requestId: 'big' })));
    for (const { response } of answers) expect((response as unknown as { retailProduct: { title: string } }).retailProduct.title).toBe(BIG);
  });

  it("rejects with the status, the decoded message and the core's ErrorDetail (once)", async () => {
    const error = await failure(client().callOperation(product, { asin: 'B000000429' }, { requestId: 'r' }));
    expect(error.code).toBe(Code.Unavailable);
    expect(error.rawMessage).toBe('blocked: 50% of tries');
    expect(error.metadata.get('retail-error-bin')).not.toContain(',');
    expect(errorDetailOf(error)).toMatchObject({ reason: ErrorReason.UPSTREAM_BLOCKED, retryAfterSeconds: 7 });
    const notFound = await failure(client().callOperation(product, { asin: 'B000000404' }, { requestId: 'r' }));
    expect(mapCoreError(notFound, product, 'rest')).toMatchObject({ status: 404, message: 'no product with this identifier' });
  });

  it.each([
    ['only the standard grpc-status-details-bin', 'B00000NEW1', 'grpc-status-details-bin', 'retail-error-bin'],
    ['only the deprecated retail-error-bin', 'B00000OLD1', 'retail-error-bin', 'grpc-status-details-bin'],
  ])('maps an error that carries its detail in %s', async (_label, asin, present, absent) => {
    const error = await failure(client().callOperation(product, { asin }, { requestId: 'r' }));
    expect([error.metadata.has(present), error.metadata.has(absent)]).toEqual([true, false]);
    expect(mapCoreError(error, product, 'rest')).toMatchObject({ status: 400, message: 'asin is malformed', path: ['query', 'asin'], reason: ErrorReason.INVALID_ARGUMENT });
  });

  it('answers UNIMPLEMENTED for a method the server does not serve', async () => {
    const error = await failure(client().callOperation(registryOperation('GetSeller'), { sellerId: 'A1B2C3D4E5F6G7' }, { requestId: 'r' }));
    expect(error.code).toBe(Code.Unimplemented);
  });

  it('gives up at its deadline with DEADLINE_EXCEEDED (a 504 for clients)', async () => {
    const c = createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 100 });
    const error = await failure(c.callOperation(product, { asin: 'B0000SLOW1' }, { requestId: 'r' }));
    expect(error.code).toBe(Code.DeadlineExceeded);
    expect(mapCoreError(error, product, 'rest').status).toBe(504);
    expect(timeoutMs(core.calls.at(-1)!.headers)).toBeLessThanOrEqual(100);
  });

  it('cancels the call when the signal aborts, and refuses an already aborted one', async () => {
    const controller = new AbortController();
    const pending = client().callOperation(product, { asin: 'B0000SLOW1' }, { requestId: 'r', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe(Code.Canceled);
    expect((await failure(client().callOperation(product, { asin: 'B0TEST0001' }, { requestId: 'r', signal: controller.signal }))).code).toBe(Code.Canceled);
  });

  it('reports an unreachable core as UNAVAILABLE (a 503 for clients), and again on the next call', async () => {
    const c = createCoreClient({ address: '127.0.0.1:1', serviceToken: TOKEN, deadlineMs: 2000 });
    for (let i = 0; i < 2; i++) {
      const error = await failure(c.callOperation(product, { asin: 'B0TEST0001' }, { requestId: 'r' }));
      expect(error.code).toBe(Code.Unavailable);
      expect(mapCoreError(error, product, 'rest').status).toBe(503);
    }
  });
});

describe('streamCall', () => {
  const items = (...asins: string[]) => asins.map((asin) => create(BatchItemSchema, { request: { case: 'product', value: { asin } } }));

  it('streams a server-streaming RPC with the service token and request id, each message as it comes', async () => {
    const client = createCoreClient({ address: core.address, serviceToken: TOKEN });
    const seen = [];
    for await (const { result } of client.streamCall(RetailService.method.batchLookup, { items: items('B000000001', 'B000000404') }, { requestId: 'stream-1' })) seen.push([result?.index, result?.result.case]);
    expect(seen).toEqual([[0, 'product'], [1, 'error']]);
    expect(core.calls.filter((c) => c.headers.get('x-request-id') === 'stream-1').map((c) => c.headers.get('authorization'))).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  it('cancels the server\'s stream when the reader leaves the loop early', async () => {
    const client = createCoreClient({ address: core.address, serviceToken: TOKEN });
    for await (const message of client.streamCall(RetailService.method.batchLookup, { items: items('B000000001', 'B0000HANG1') }, { requestId: 'stream-2' })) {
      expect(message.result?.index).toBe(0);
      break;
    }
    await vi.waitFor(() => expect(cancelled).toContain('B0000HANG1'), { timeout: 5_000 });
  });

  it('fails as a whole past its own deadline, with the status the mapping reads as 504', async () => {
    const client = createCoreClient({ address: core.address, serviceToken: TOKEN });
    const read = async () => {
      for await (const message of client.streamCall(RetailService.method.batchLookup, { items: items('B0000SLOW1') }, { requestId: 'stream-3', deadlineMs: 100 })) void message;
    };
    const error = await failure(read());
    expect(error.code).toBe(Code.DeadlineExceeded);
    expect(mapCoreError(error, undefined, 'rest').status).toBe(504);
  });
});
