/**
 * The SnapshotReader over a real gRPC connection to a stand-in core: which fields come from
 * GetProduct and GetSalesEstimate, and how the core's errors read (gone, retry later, give up).
 */
import { ErrorReason } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreSnapshotReader } from '../../../watcher/src/refresh/index.js';
import { coreError, startStubCore, type StubCore } from '../../harness/stub-core.js';

const TOKEN = 'watcher-reader-token';
const RETRIEVED = new Date('2026-03-01T11:58:00Z');
let core: StubCore;
let answer: 'product' | 'not-found' | 'busy' | 'bad-request' = 'product';

beforeAll(async () => {
  core = await startStubCore({
    serviceToken: TOKEN,
    handlers: {
      GetProduct: () => {
        if (answer === 'not-found') throw coreError(ErrorReason.NOT_FOUND);
        if (answer === 'busy') throw coreError(ErrorReason.UPSTREAM_BLOCKED);
        if (answer === 'bad-request') throw coreError(ErrorReason.INVALID_ARGUMENT, 'asin is malformed', ['asin']);
        return {
          retailProduct: { asin: 'B000000001', price: { value: 8, currency: 'USD' }, isInStock: true, seller: { sellerId: 'ATVPDKIKX0DER' }, rating: 4.6, ratingsTotal: 1234 },
          meta: { retrievedAt: { seconds: BigInt(RETRIEVED.getTime() / 1000), nanos: 0 } },
        };
      },
      GetSalesEstimate: () => ({ retailProduct: { salesEstimate: { bestSellersRank: 42, category: 'Electronics' } } }),
    },
  });
});

afterAll(async () => core?.close());

const reader = () => createCoreSnapshotReader(createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000 }));

describe('the core snapshot reader', () => {
  it('reads price, stock, buy-box seller and ratings from GetProduct and the rank from GetSalesEstimate, with the page time', async () => {
    answer = 'product';
    expect(await reader().read('DE', 'B000000001')).toEqual({
      kind: 'snapshot',
      snapshot: {
        retrievedAt: RETRIEVED, price: { value: 8, currency: 'USD' }, isInStock: true, buyboxSellerId: 'ATVPDKIKX0DER',
        rating: 4.6, ratingsTotal: 1234, bestSellersRank: 42, bestSellersCategory: 'Electronics',
      },
    });
    const asked = core.calls.slice(-2);
    expect(asked.map((call) => call.method)).toEqual(['GetProduct', 'GetSalesEstimate']);
    // The product read is a watch's refresh, whose pages the core archives; the estimate reads the page it cached.
    expect(asked.map((call) => call.headers.get('x-retail-archive'))).toEqual(['watch-refresh', null]);
    expect((asked[0]!.request as unknown as { domain: number }).domain).toBe(4); // DE
  });

  it('tells a product the marketplace no longer has from a failure worth retrying and one that is not', async () => {
    answer = 'not-found';
    expect(await reader().read('US', 'B000000001')).toEqual({ kind: 'not-found' });
    answer = 'busy';
    expect(await reader().read('US', 'B000000001')).toMatchObject({ kind: 'failed', retryable: true });
    answer = 'bad-request';
    expect(await reader().read('US', 'B000000001')).toMatchObject({ kind: 'failed', retryable: false });
  });
});
