/**
 * BatchLookup straight from the core with @grpc/grpc-js's own client (no code of ours on the client
 * side but the generated messages): the results stream as items complete, proven with a page the
 * replay server holds back until every other item has arrived; each failure carries the unary
 * call's ErrorDetail.
 */
import { resolve } from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { type BatchItemResult, type BatchLookupRequest, BatchLookupRequestSchema, type BatchLookupResponse, BatchLookupResponseSchema, Domain, ErrorReason } from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedCore, startCore } from '../harness/core.js';
import { type ReplayServer, createReplayServer } from '../replay/server.js';
import { CORE_ENV } from './batch-stack.js';

const HELD_PAGE = '/dp/B0FXTJP001';
let release: () => void = () => {};
const held = new Promise<void>((done) => (release = done));
let replay: ReplayServer;
let core: StartedCore;
let client: grpc.Client;

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [resolve(import.meta.dirname, '../fixtures/pages')], hold: (request) => (request.path === HELD_PAGE ? held : undefined) });
  core = await startCore({ marketplaceOrigin: replay.origin, env: CORE_ENV });
  client = new grpc.Client(core.address, grpc.credentials.createInsecure());
}, 60_000);
afterAll(async () => {
  release();
  client?.close();
  await core?.stop();
  await replay?.close();
});

/** Streams one BatchLookup; `onResult` sees each result as it arrives. */
function batchLookup(request: BatchLookupRequest, onResult: (result: BatchItemResult) => void): Promise<BatchItemResult[]> {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${core.token}`);
  const call = client.makeServerStreamRequest<BatchLookupRequest, BatchLookupResponse>(
    '/retail.v1.RetailService/BatchLookup',
    (message) => Buffer.from(toBinary(BatchLookupRequestSchema, message)),
    (bytes) => fromBinary(BatchLookupResponseSchema, bytes),
    request,
    metadata,
    { deadline: Date.now() + 20_000 },
  );
  const results: BatchItemResult[] = [];
  return new Promise((done, fail) => {
    call.on('data', (response: BatchLookupResponse) => {
      results.push(response.result!);
      onResult(response.result!);
    });
    call.on('error', fail);
    call.on('end', () => done(results));
  });
}

const product = (asin: string, domain?: Domain) => ({ request: { case: 'product' as const, value: { asin, ...(domain ? { domain } : {}) } } });

describe('BatchLookup from a grpc-js client', () => {
  it('streams every other result before the item whose page the marketplace holds back', async () => {
    const safety = setTimeout(release, 8_000);
    const arrivedWhileHeld: number[] = [];
    let stillHeld = true;
    const request = create(BatchLookupRequestSchema, {
      items: [
        product('B0FXTJP001', Domain.JP),
        product('B0FXTUS001'),
        product('B0NOTFND42'),
        { request: { case: 'asinFromGtin', value: { gtin: '9780316769487' } } },
        { request: { case: 'stock', value: { asin: 'B0FXTUS001' } } },
      ] as never,
    });
    const results = await batchLookup(request, (result) => {
      if (!stillHeld) return;
      arrivedWhileHeld.push(result.index);
      if (arrivedWhileHeld.length === 4) {
        stillHeld = false;
        clearTimeout(safety);
        release();
      }
    });
    expect(arrivedWhileHeld.sort()).toEqual([1, 2, 3, 4]);
    expect(results.at(-1)).toMatchObject({ index: 0, result: { case: 'product', value: { retailProduct: { asin: 'B0FXTJP001' } } } });
    const byIndex = new Map(results.map((r) => [r.index, r.result]));
    expect(byIndex.get(2)).toMatchObject({ case: 'error', value: { reason: ErrorReason.NOT_FOUND } });
    expect(byIndex.get(3)).toMatchObject({ case: 'error', value: { reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['gtin'], message: 'gtin has an invalid check digit' } });
    expect(byIndex.get(4)).toMatchObject({ case: 'stock', value: { retailProduct: { stockEstimate: { inStock: true } } } });
  });
});
