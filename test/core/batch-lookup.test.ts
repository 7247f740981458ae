/**
 * BatchLookup on a real core over real gRPC (a Connect client streaming, as the gateways call it),
 * with probe handlers that count their runs, hold an item until the test lets it go, and fail as
 * the marketplace would. What it proves: per-item outcomes equal to the unary call's, identical items
 * run once, results stream as they complete, concurrency is bounded, and a cancel or deadline stops
 * the items not started.
 */
import { type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { type BatchItemResult, ErrorDetailSchema, ErrorReason, RetailService } from '@retail/contract';
import { CoreError, HANDLERS, type HandlerTable, type PageFetcher } from '@retail/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StartedCore, startCore } from '../harness/core.js';

const noPages: PageFetcher = { fetchPage: async () => { throw new Error('no page in this test'); } };

/** What the probe handlers saw: runs per ASIN, the most running at once, and gates that hold an ASIN's run. */
const probe = { runs: new Map<string, number>(), running: 0, mostRunning: 0, gates: new Map<string, Promise<void>>() };

function gate(asin: string): () => void {
  let open = () => {};
  probe.gates.set(asin, new Promise<void>((resolve) => (open = resolve)));
  return open;
}

const handlers: HandlerTable = {
  ...HANDLERS,
  GetProduct: async (request, context) => {
    const asin = request.lookup.kind === 'asin' ? request.lookup.asin : request.lookup.gtin;
    probe.runs.set(asin, (probe.runs.get(asin) ?? 0) + 1);
    probe.running++;
    probe.mostRunning = Math.max(probe.mostRunning, probe.running);
    try {
      const held = probe.gates.get(asin);
      if (held) await Promise.race([held, new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }))]);
      else await new Promise((resolve) => setTimeout(resolve, 5));
      if (asin === 'B0NOTFOUND') throw new CoreError(ErrorReason.NOT_FOUND, 'the marketplace has no product with this asin');
      return { retailProduct: { asin, title: `product ${asin}` } };
    } finally {
      probe.running--;
    }
  },
};

let core: StartedCore;
let client: Client<typeof RetailService>;
let auth: { authorization: string };

beforeAll(async () => {
  core = await startCore({ pages: noPages, handlers, env: { BATCH_CONCURRENCY: '2' } });
  client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
  auth = { authorization: `Bearer ${core.token}` };
});

afterAll(async () => {
  await core?.stop();
});

afterEach(() => {
  probe.runs.clear();
  probe.gates.clear();
  probe.mostRunning = 0;
});

const product = (asin: string) => ({ request: { case: 'product' as const, value: { asin } } });

/** Streams a batch to the end, noting for each result how many arrived before it. */
async function stream(items: object[], options: { signal?: AbortSignal; timeoutMs?: number; onResult?: (r: BatchItemResult) => void } = {}) {
  const results: BatchItemResult[] = [];
  for await (const message of client.batchLookup({ items }, { headers: auth, ...options })) {
    results.push(message.result!);
    options.onResult?.(message.result!);
  }
  return results;
}

const byIndex = (results: BatchItemResult[]) => [...results].sort((a, b) => a.index - b.index);

async function unaryDetail(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return (error as ConnectError).findDetails(ErrorDetailSchema)[0];
  }
  throw new Error('the unary call succeeded');
}

describe('BatchLookup', () => {
  it('answers every item by its index, each failure exactly as its unary call answers it', async () => {
    const items = [
      product('B000000001'),
      { request: { case: 'asinFromGtin', value: { gtin: '4006381333932' } } },
      product('B0NOTFOUND'),
      { request: { case: 'offers', value: { asin: 'B000000001', page: 0n } } },
      {},
      product('B00'),
    ];
    const results = byIndex(await stream(items));
    expect(results.map((r) => [r.index, r.result.case])).toEqual([[0, 'product'], [1, 'error'], [2, 'error'], [3, 'error'], [4, 'error'], [5, 'error']]);
    expect(results[0]!.result.value).toMatchObject({ retailProduct: { asin: 'B000000001', title: 'product B000000001' } });
    const unary = [
      await unaryDetail(client.getAsinFromGtin({ gtin: '4006381333932' }, { headers: auth })),
      await unaryDetail(client.getProduct({ asin: 'B0NOTFOUND' }, { headers: auth })),
      await unaryDetail(client.getProductOffers({ asin: 'B000000001', page: 0n }, { headers: auth })),
    ];
    const pick = (detail: unknown) => {
      const { reason, message, fieldPath } = detail as { reason: ErrorReason; message: string; fieldPath: string[] };
      return { reason, message, fieldPath };
    };
    expect(results.slice(1, 4).map((r) => pick(r.result.value))).toEqual(unary.map(pick));
    expect(pick(results[1]!.result.value)).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['gtin'], message: 'gtin has an invalid check digit' });
    expect(pick(results[4]!.result.value)).toEqual({ reason: ErrorReason.INVALID_ARGUMENT, message: 'the item names no operation', fieldPath: [] });
    expect(pick(results[5]!.result.value)).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['asin'] });
  });

  it('runs identical items once (same operation and normalized request) and answers every index', async () => {
    // ` b000000002 ` normalizes to B000000002: trimmed and upper-cased before the identity is taken.
    const results = byIndex(await stream([product('B000000002'), product('B000000003'), product(' b000000002 '), product('B000000002')]));
    expect(results.map((r) => (r.result.value as { retailProduct?: { asin?: string } }).retailProduct?.asin)).toEqual(['B000000002', 'B000000003', 'B000000002', 'B000000002']);
    expect(Object.fromEntries(probe.runs)).toEqual({ B000000002: 1, B000000003: 1 });
  });

  it('streams each result as it completes: a held item does not hold back the others', async () => {
    const release = gate('B0SLOWSLOW');
    const arrivedBeforeRelease: number[] = [];
    let released = false;
    const results = await stream([product('B0SLOWSLOW'), product('B000000004'), product('B000000005'), product('B000000006')], {
      onResult: (r) => {
        if (!released) arrivedBeforeRelease.push(r.index);
        if (arrivedBeforeRelease.length === 3 && !released) {
          released = true;
          release();
        }
      },
    });
    expect(arrivedBeforeRelease.sort()).toEqual([1, 2, 3]);
    expect(results.at(-1)?.index).toBe(0);
  });

  it('runs at most BATCH_CONCURRENCY items at once', async () => {
    await stream(Array.from({ length: 12 }, (_, i) => product(`B00000010${i.toString(36)}`)));
    expect(probe.runs.size).toBe(12);
    expect(probe.mostRunning).toBe(2);
  });

  it('refuses a batch of 0 or 101 items as a whole: INVALID_ARGUMENT on items', async () => {
    for (const items of [[], Array.from({ length: 101 }, () => product('B000000001'))]) {
      const error = await stream(items).then(() => undefined, (e: unknown) => e as ConnectError);
      expect(error?.code).toBe(Code.InvalidArgument);
      expect(error?.findDetails(ErrorDetailSchema)[0]).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['items'], message: 'items must hold between 1 and 100 entries' });
    }
  });

  it('starts no more items once the client cancels', async () => {
    gate('B0HELDHELD');
    gate('B000000008');
    const controller = new AbortController();
    const items = [product('B000000007'), product('B0HELDHELD'), product('B0HELDHELD'), product('B000000008'), product('B000000009'), product('B00000000A')];
    // Two run at once: the first answers and the next (held) takes its slot; the client leaves at the first result.
    await stream(items, { signal: controller.signal, onResult: () => controller.abort() }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...probe.runs.keys()]).toEqual(['B000000007', 'B0HELDHELD', 'B000000008']);
  });

  it('starts no more items once the deadline passes', async () => {
    gate('B0HELDHELD');
    const items = [product('B0HELDHELD'), product('B0HELDHELE'), product('B000000011'), product('B000000012')];
    gate('B0HELDHELE');
    const error = await stream(items, { timeoutMs: 300 }).then(() => undefined, (e: unknown) => e as ConnectError);
    expect(error?.code).toBe(Code.DeadlineExceeded);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...probe.runs.keys()]).toEqual(['B0HELDHELD', 'B0HELDHELE']);
  });
});
