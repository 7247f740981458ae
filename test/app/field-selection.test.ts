/**
 * Field selection on every interface (issue 26) through `npm start`'s one process (the real core
 * reading the replay server's fixture pages, the gateways calling it over gRPC): REST's `fields`,
 * MCP's `fields` (the SDK's own Client) and the core's `read_mask` (a @grpc/grpc-js client, no code
 * of ours on the client side but the generated messages). Every expected answer is the full answer of
 * the same call cut down to the paths here in the test; an unknown path is refused by name, uncharged;
 * a selection costs what the full call costs and is served from the same cached page.
 */
import { type DescMessage, type MessageShape, create, fromBinary, toBinary } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import {
  ErrorDetailSchema, ErrorReason, GetProductRequestSchema, GetProductResponseSchema, RetailService, RpcStatusSchema, SearchProductsRequestSchema, SearchProductsResponseSchema, renderData,
} from '@retail/contract';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';
import { runSdkClient } from '../harness/mcp-sdk-client.js';

type Json = any;

let running: OneProcess;
let stack: RunningStack;
let key: Record<string, string>;
let grpcClient: grpc.Client;

beforeAll(async () => {
  running = await startOneProcess({ DEV_UNITS: '200' });
  stack = running.stack;
  key = { 'API-KEY': stack.devKey };
  grpcClient = new grpc.Client(stack.coreAddress, grpc.credentials.createInsecure());
}, 120_000);
afterAll(async () => {
  grpcClient?.close();
  await running?.stop();
});

const PRODUCT = 'asin=B0FXTUS001';
const SEARCH = `searchTerm=${encodeURIComponent('espresso machine')}`;

const get = (path: string) => fetch(`${stack.url}${path}`, { headers: key });
const post = (path: string, body: unknown) => fetch(`${stack.url}${path}`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const balance = async (): Promise<number> => ((await (await get('/api/account')).json()) as Json).data.balance;

/**
 * The test's own reading of a dotted path list: `value` cut to `paths` (wire names), through lists,
 * a path ending on an object keeping all of it. Written here from the words, not imported,
 * so the test does not check the implementation against itself.
 */
function cutDown(value: Json, paths: readonly string[]): Json {
  const pick = (v: Json, rest: readonly string[][]): Json => {
    if (rest.some((p) => p.length === 0) || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((item) => pick(item, rest));
    const out: Json = {};
    for (const name of new Set(rest.map((p) => p[0]!))) {
      if (name in v) out[name] = pick(v[name], rest.filter((p) => p[0] === name).map((p) => p.slice(1)));
    }
    return out;
  };
  return pick(value, paths.map((p) => p.split('.')));
}

/** One unary call of the core from grpc-js, with the service token. */
function grpcCall<Req extends DescMessage, Res extends DescMessage>(method: string, requestDesc: Req, responseDesc: Res, request: MessageShape<Req>): Promise<MessageShape<Res>> {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${stack.serviceToken}`);
  return new Promise((resolve, reject) => {
    grpcClient.makeUnaryRequest<MessageShape<Req>, MessageShape<Res>>(
      `/${RetailService.typeName}/${method}`,
      (message) => Buffer.from(toBinary(requestDesc, message)),
      (bytes) => fromBinary(responseDesc, bytes),
      request,
      metadata,
      { deadline: Date.now() + 20_000 },
      (error, response) => (error ? reject(error) : resolve(response!)),
    );
  });
}

describe('fields on REST', () => {
  it('answers exactly the full answer cut down to the paths, for the same unit, from the same cached page', async () => {
    const full = await get(`/api/retail/product?${PRODUCT}`);
    expect(full.status).toBe(200);
    const fullBody = (await full.json()) as Json;
    const paths = ['title', 'price.value', 'categories.name', 'isPrime', 'coupon'];
    const chosen = await get(`/api/retail/product?${PRODUCT}&fields=${paths.join(',')}`);
    expect(chosen.status).toBe(200);
    const body = (await chosen.json()) as Json;
    expect(body).toEqual({ data: { retailProduct: cutDown(fullBody.data.retailProduct, paths) } });
    // The full record has more than the selection: the cut is real.
    expect(Object.keys(fullBody.data.retailProduct).length).toBeGreaterThan(Object.keys(body.data.retailProduct).length + 5);
    expect(body.data.retailProduct.price).toEqual({ value: fullBody.data.retailProduct.price.value });
    expect(chosen.headers.get('x-units-charged')).toBe(full.headers.get('x-units-charged'));
    expect(chosen.headers.get('x-units-charged')).toBe('1');
    // The full call read the page; the selection is served from the same cache entry.
    expect(chosen.headers.get('x-cache')).toBe('HIT');
  });

  it('cuts each item of a list (results.asin), and keeps a whole object named by its path', async () => {
    const fullBody = (await (await get(`/api/retail/search?${SEARCH}`)).json()) as Json;
    const paths = ['productResults.results.asin', 'productResults.results.price', 'productResults.pageInfo.currentPage'];
    const res = await get(`/api/retail/search?${SEARCH}&fields=${paths.join(',')}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.data.retailProductSearchResults.productResults.results.length).toBeGreaterThan(1);
    expect(body).toEqual({ data: { retailProductSearchResults: cutDown(fullBody.data.retailProductSearchResults, paths) } });
  });

  it('refuses an unknown path with 400 naming it, charging nothing', async () => {
    const before = await balance();
    const res = await get(`/api/retail/product?${PRODUCT}&fields=title,price.valu`);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-units-charged')).toBe('0');
    expect(await res.json()).toEqual({ success: false, errors: [{ code: 400, message: 'fields names no field price.valu of the record', path: ['query', 'fields'] }] });
    const empty = await get(`/api/retail/product?${PRODUCT}&fields=,`);
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as Json).errors[0].path).toEqual(['query', 'fields']);
    expect(await balance()).toBe(before);
  });
});

describe('read_mask on gRPC', () => {
  it('cuts the response message to the paths (proto field names) and says so in meta.read_mask', async () => {
    const full = await grpcCall('GetProduct', GetProductRequestSchema, GetProductResponseSchema, create(GetProductRequestSchema, { asin: 'B0FXTUS001' }));
    const cut = await grpcCall('GetProduct', GetProductRequestSchema, GetProductResponseSchema, create(GetProductRequestSchema, { asin: 'B0FXTUS001', readMask: { paths: ['title', 'price.value', 'is_prime'] } }));
    const product = cut.retailProduct!;
    expect(product.title).toBe(full.retailProduct!.title);
    expect(product.isPrime).toBe(full.retailProduct!.isPrime);
    expect(product.price?.value).toBe(full.retailProduct!.price!.value);
    expect(product.price?.currency).toBeUndefined();
    expect(full.retailProduct!.asin).toBe('B0FXTUS001');
    expect(product.asin).toBeUndefined();
    expect(product.imageUrls).toEqual([]);
    expect(full.retailProduct!.imageUrls.length).toBeGreaterThan(0);
    expect(cut.meta?.readMask?.paths).toEqual(['title', 'price.value', 'is_prime']);
    // The message is smaller on the wire: what the gateways receive from the core.
    expect(toBinary(GetProductResponseSchema, cut).length).toBeLessThan(toBinary(GetProductResponseSchema, full).length / 4);
  });

  it('refuses an unknown path (or a wire name) with INVALID_ARGUMENT naming it and the read_mask field', async () => {
    for (const path of ['price.valu', 'isPrime']) {
      const error = await grpcCall('GetProduct', GetProductRequestSchema, GetProductResponseSchema, create(GetProductRequestSchema, { asin: 'B0FXTUS001', readMask: { paths: ['title', path] } })).then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error?.details).toBe(`read_mask names no field ${path} of the record`);
      const status = fromBinary(RpcStatusSchema, error!.metadata.get('grpc-status-details-bin')[0] as Buffer);
      const detail = anyUnpack(status.details[0]!, ErrorDetailSchema);
      expect(detail).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['read_mask'] });
    }
  });
});

describe('the same records on REST, MCP and gRPC', () => {
  it('for the same paths, a product and a search page', async () => {
    const cases = [
      { tool: 'retail_product', query: PRODUCT, args: { asin: 'B0FXTUS001' }, wire: ['title', 'price.value', 'price.currency', 'rating', 'isPrime'], proto: ['title', 'price.value', 'price.currency', 'rating', 'is_prime'], root: 'retailProduct' },
      { tool: 'retail_search', query: SEARCH, args: { searchTerm: 'espresso machine' }, wire: ['productResults.results.asin', 'productResults.results.title'], proto: ['product_results.results.asin', 'product_results.results.title'], root: 'retailProductSearchResults' },
    ];
    const mcp = await runSdkClient(`${stack.url}/api/mcp`, key, cases.map((c) => ({ op: 'callTool' as const, name: c.tool, arguments: { ...c.args, fields: c.wire.join(','), listLimit: 100 } })));
    for (const [i, c] of cases.entries()) {
      const rest = ((await (await get(`/api/retail/${c.tool === 'retail_product' ? 'product' : 'search'}?${c.query}&fields=${c.wire.join(',')}`)).json()) as Json).data;
      const outcome = mcp[i + 1]!;
      if (!outcome.ok) throw new Error(outcome.error);
      const viaMcp = outcome.result.structuredContent.data;
      const viaGrpc = c.tool === 'retail_product'
        ? renderData(GetProductResponseSchema, await grpcCall('GetProduct', GetProductRequestSchema, GetProductResponseSchema, create(GetProductRequestSchema, { asin: 'B0FXTUS001', readMask: { paths: c.proto } })))
        : renderData(SearchProductsResponseSchema, await grpcCall('SearchProducts', SearchProductsRequestSchema, SearchProductsResponseSchema, create(SearchProductsRequestSchema, { searchTerm: 'espresso machine', readMask: { paths: c.proto } })));
      expect(Object.keys(rest[c.root]).length).toBeGreaterThan(0);
      expect(viaMcp).toEqual(rest);
      expect(viaGrpc).toEqual(rest);
    }
  }, 60_000);
});

describe('fields in batches and bulk jobs', () => {
  it('a batch item\'s params take fields: each entry is its single call\'s answer cut down; an unknown path is that item\'s 400', async () => {
    const full = ((await (await get(`/api/retail/product?${PRODUCT}`)).json()) as Json).data;
    const res = await post('/api/retail/batch', {
      items: [
        { operation: 'product', params: { asin: 'B0FXTUS001', fields: 'title,price.value' } },
        { operation: 'product', params: { asin: 'B0FXTUS001' } },
        { operation: 'product', params: { asin: 'B0FXTUS001', fields: 'title,nope' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-units-charged')).toBe('2');
    const entries = ((await res.json()) as Json).data.retailBatch.items as Json[];
    const byIndex = new Map(entries.map((e) => [e.index, e]));
    expect(byIndex.get(0)).toEqual({ index: 0, status: 200, data: { retailProduct: cutDown(full.retailProduct, ['title', 'price.value']) } });
    expect(byIndex.get(1)).toEqual({ index: 1, status: 200, data: full });
    expect(byIndex.get(2)).toEqual({ index: 2, status: 400, errors: [{ code: 400, message: 'fields names no field nope of the record', path: ['body', 'items', '2', 'params', 'fields'] }] });
  });

  it('a job item\'s params take fields: its stored result reads cut down', async () => {
    const full = ((await (await get(`/api/retail/product?${PRODUCT}`)).json()) as Json).data;
    const created = await post('/api/retail/jobs', { items: [{ operation: 'product', params: { asin: 'B0FXTUS001', fields: 'asin,price' } }] });
    expect(created.status).toBe(202);
    const { id } = ((await created.json()) as Json).data.retailJob;
    const deadline = Date.now() + 30_000;
    let job: Json;
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      job = ((await (await get(`/api/retail/jobs/${id}`)).json()) as Json).data.retailJob;
    } while (job.status !== 'DONE' && Date.now() < deadline);
    expect(job).toMatchObject({ status: 'DONE', done: 1, failed: 0, unitsCharged: 1 });
    const page = ((await (await get(`/api/retail/jobs/${id}/items`)).json()) as Json).data.retailJobResults;
    expect(page.results).toEqual([{ index: 0, status: 200, data: { retailProduct: cutDown(full.retailProduct, ['asin', 'price']) } }]);
  }, 60_000);
});
