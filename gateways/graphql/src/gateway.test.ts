/**
 * The GraphQL gateway over real HTTP, with the real metering library (memory ledger) and a stub
 * core serving RetailService over real gRPC.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ErrorReason } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { type StubCore, coreError, startStubCore } from '../../../test/harness/stub-core.js';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphqlApp } from './app.js';

const TOKEN = 'test-service-token';
const PRODUCT = {
  retailProduct: {
    title: 'Kindle Paperwhite',
    asin: 'B08KTZ8249',
    isPrime: true,
    ratingsTotal: 4503599627370495,
    price: { symbol: '$', value: 139.99, currency: 'USD', display: '$139.99' },
  },
};

let core: StubCore;
let metering: MeteringInstance;
let server: Server;
let base: string;
let key: string;

async function newKey(units: number, plan?: string): Promise<string> {
  const { accountId } = await metering.admin.createAccount({ units, ...(plan ? { plan } : {}) });
  return (await metering.admin.createKey(accountId)).key;
}

async function gql(body: unknown, headers: Record<string, string> = { 'api-key': key }) {
  const res = await fetch(`${base}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

function callsSince(n: number): string[] {
  return core.calls.slice(n).map((c) => c.method);
}

beforeAll(async () => {
  core = await startStubCore({
    serviceToken: TOKEN,
    handlers: {
      GetProduct: (req) => {
        const asin = (req as unknown as { asin?: string }).asin;
        if (asin === 'B000000404') throw coreError(ErrorReason.NOT_FOUND);
        if (asin === 'B000000503') throw coreError(ErrorReason.UPSTREAM_BLOCKED, undefined, [], 30);
        return PRODUCT;
      },
      GetAsinFromGtin: (req) => ({ retailProduct: { asin: 'B08KTZ8249', gtin: (req as unknown as { gtin: string }).gtin } }),
      GetGtinFromAsin: (req) => ({ retailProduct: { asin: (req as unknown as { asin: string }).asin, gtin: '0840080541228' } }),
      SearchProducts: (req) => {
        const r = req as unknown as { searchTerm: string; page?: number };
        return {
          retailProductSearchResults: {
            availableRefinements: [{ name: 'Brand', options: [{ name: 'Acme', value: 'p_89/Acme' }] }],
            productResults: { results: [{ asin: 'B000000001', title: r.searchTerm }], pageInfo: { currentPage: r.page ?? 1, totalResults: 3_000_000_000 } },
          },
        };
      },
    },
  });
  metering = await createMetering({ plans: { tiny: { ratePerSecond: 0.001, burst: 1 }, unlimited: { ratePerSecond: Infinity, burst: Infinity } } });
  key = await newKey(1000, 'unlimited');
  const app = await createGraphqlApp({
    core: createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000 }),
    metering,
    maxOperations: 4,
    maxDepth: 8,
    bodyLimitBytes: 4096,
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await metering?.close();
  await core?.close();
});

describe('GraphQL gateway', () => {
  it('serves introspection free to graphql-js buildClientSchema, with a key', async () => {
    const before = core.calls.length;
    const res = await gql({ query: getIntrospectionQuery() });
    expect(res.status).toBe(200);
    const schema = buildClientSchema(res.json.data as IntrospectionQuery);
    const query = schema.getQueryType()!.getFields();
    expect(Object.keys(query)).toEqual(expect.arrayContaining(['retailProduct', 'retailProductSearchResults', 'retailSeller', 'retailProductCategoryTaxonomy']));
    expect(query.retailProduct!.args.map((a) => `${a.name}:${a.type}`)).toEqual(expect.arrayContaining(['asin:String', 'domain:RetailDomain', 'gtin:String', 'url:String']));
    const product = schema.getType('RetailProduct') as import('graphql').GraphQLObjectType;
    expect(Object.keys(product.getFields())).toEqual(expect.arrayContaining(['title', 'gtin', 'variants', 'offersPaginated', 'topReviews', 'reviewsPaginated', 'stockEstimate', 'salesEstimate']));
    expect(String(product.getFields().ratingsTotal!.type)).toBe('SafeInt');
    expect(res.headers.get('x-units-charged')).toBe('0');
    expect(callsSince(before)).toEqual([]);

    const anonymous = await gql({ query: getIntrospectionQuery() }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ success: false, errors: [{ code: 401, message: expect.stringMatching(/invalid or missing/) }] });
  });

  it('answers the docs/contract.md example with one GetProduct call and one unit', async () => {
    const before = core.calls.length;
    const res = await gql({ query: '{ retailProduct(asin: "B08KTZ8249", domain: US) { title price { value currency display } isPrime ratingsTotal } }' });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      retailProduct: { title: 'Kindle Paperwhite', price: { value: 139.99, currency: 'USD', display: '$139.99' }, isPrime: true, ratingsTotal: 4503599627370495 },
    });
    expect(res.json.errors).toBeUndefined();
    expect(callsSince(before)).toEqual(['GetProduct']);
    expect(res.headers.get('x-units-charged')).toBe('1');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.json.extensions).toMatchObject({ unitsCharged: 1, requestId: res.headers.get('x-request-id') });
    expect(res.json.extensions.unitsRemaining).toBe(Number(res.headers.get('x-units-remaining')));
  });

  it('uses one conversion call for an identifiers-only selection', async () => {
    let before = core.calls.length;
    const byGtin = await gql({ query: '{ retailProduct(gtin: "0840080541228") { asin gtin } }' });
    expect(byGtin.json.data).toEqual({ retailProduct: { asin: 'B08KTZ8249', gtin: '0840080541228' } });
    expect(callsSince(before)).toEqual(['GetAsinFromGtin']);
    before = core.calls.length;
    const byAsin = await gql({ query: '{ retailProduct(asin: "B08KTZ8249") { gtin } }' });
    expect(byAsin.json.data).toEqual({ retailProduct: { gtin: '0840080541228' } });
    expect(callsSince(before)).toEqual(['GetGtinFromAsin']);
    expect(byAsin.headers.get('x-units-charged')).toBe('1');
  });

  it('charges only the operations that succeed; a failed one is null with its error', async () => {
    const before = core.calls.length;
    const res = await gql({ query: '{ retailProduct(asin: "B08KTZ8249") { title variants { asin } } }' });
    expect(res.status).toBe(200);
    expect(callsSince(before).sort()).toEqual(['GetProduct', 'GetProductVariants']);
    expect(res.json.data).toEqual({ retailProduct: { title: 'Kindle Paperwhite', variants: null } });
    expect(res.json.errors).toEqual([
      expect.objectContaining({ code: 501, extensions: { code: 501 }, path: ['retailProduct', 'variants'], message: expect.any(String) }),
    ]);
    expect(res.headers.get('x-units-charged')).toBe('1');
  });

  it('leaves a not-found product null beside the others (aliases), on HTTP 200', async () => {
    const res = await gql({ query: '{ a: retailProduct(asin: "B08KTZ8249") { title } b: retailProduct(asin: "B000000404") { title } }' });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ a: { title: 'Kindle Paperwhite' }, b: null });
    expect(res.json.errors).toEqual([expect.objectContaining({ code: 404, extensions: { code: 404 }, path: ['b'] })]);
    expect(res.json.extensions.unitsCharged).toBe(1);
  });

  it('passes on how long a blocked marketplace asks to wait (Retry-After), charging nothing', async () => {
    const res = await gql({ query: '{ retailProduct(asin: "B000000503") { title } }' });
    expect(res.status).toBe(200);
    expect(res.json.errors).toEqual([expect.objectContaining({ code: 503, path: ['retailProduct'] })]);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('x-units-charged')).toBe('0');
  });

  it('places nested arguments on their field (productResults(page))', async () => {
    const before = core.calls.length;
    const res = await gql({
      query: 'query($t: String!) { retailProductSearchResults(searchTerm: $t) { availableRefinements { name } productResults(page: 2) { results { title } pageInfo { currentPage totalResults } } } }',
      variables: { t: 'kindle' },
    });
    expect(res.json.data.retailProductSearchResults).toEqual({
      availableRefinements: [{ name: 'Brand' }],
      productResults: { results: [{ title: 'kindle' }], pageInfo: { currentPage: 2, totalResults: 3_000_000_000 } },
    });
    expect(callsSince(before)).toEqual(['SearchProducts']);
  });

  it('refuses over-complex requests with 400 before any work or charge', async () => {
    const before = core.calls.length;
    const aliases = Array.from({ length: 5 }, (_, i) => `p${i}: retailProduct(asin: "B08KTZ824${i}") { title }`).join(' ');
    const res = await gql({ query: `{ ${aliases} }` });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, errors: [{ code: 400, message: expect.stringMatching(/5 operations; at most 4/) }] });
    expect(res.headers.get('x-units-charged')).toBe('0');
    const deep = await gql({ query: '{ retailProductCategoryTaxonomy { subcategories { subcategories { subcategories { subcategories { subcategories { subcategories { subcategories { subcategories { id } } } } } } } } } }' });
    expect(deep.status).toBe(400);
    expect(deep.json.errors[0].message).toMatch(/levels deep/);
    expect(callsSince(before)).toEqual([]);
  });

  it('refuses bad parameters, documents and HTTP shapes with the envelope', async () => {
    const before = core.calls.length;
    const badAsin = await gql({ query: '{ retailProduct(asin: "nope") { title } }' });
    expect(badAsin.status).toBe(400);
    expect(badAsin.json).toEqual({ success: false, errors: [{ code: 400, message: expect.any(String), path: ['asin'] }] });
    const unknownArgument = await gql({ query: '{ retailProduct(asin: "B08KTZ8249", color: "red") { title } }' });
    expect(unknownArgument.status).toBe(400);
    expect(unknownArgument.json.errors[0]).toMatchObject({ code: 400, path: ['color'] });
    const undeclared = await gql({ query: 'query($asin: String) { retailProduct(asin: $asin) { title } }', variables: { asin: 'B08KTZ8249', color: 'red' } });
    expect(undeclared.json).toEqual({ success: false, errors: [{ code: 400, message: 'unknown parameter color', path: ['color'] }] });
    // graphql-js refuses these before any rule of ours; the client still reads the rule table, naming the argument.
    const coercion = await gql({ query: 'query($p: Int) { retailProduct(asin: "B08KTZ8249") { offersPaginated(page: $p) { offers { id } } } }', variables: { p: 'abc' } });
    expect(coercion.json).toEqual({ success: false, errors: [{ code: 400, message: 'page must be an integer', path: ['page'] }] });
    const enumName = await gql({ query: 'query($d: RetailDomain) { retailProduct(asin: "B08KTZ8249", domain: $d) { title } }', variables: { d: 'XX' } });
    expect(enumName.json.errors[0]).toMatchObject({ code: 400, message: expect.stringMatching(/^domain must be one of US, UK/), path: ['domain'] });
    const missing = await gql({ query: '{ retailSeller { name } }' });
    expect(missing.json).toEqual({ success: false, errors: [{ code: 400, message: 'sellerId is required', path: ['sellerId'] }] });
    const directive = await gql({ query: 'query($s: Boolean!) { retailProduct(asin: "B08KTZ8249") @skip(if: $s) { title } }', variables: { s: 'yes' } });
    expect(directive.json.errors[0]).toMatchObject({ code: 400, path: ['s'] });
    const outOfRange = await gql({ query: '{ retailProduct(asin: "B08KTZ8249") { offersPaginated(page: 101) { offers { id } } } }' });
    expect(outOfRange.json).toEqual({ success: false, errors: [{ code: 400, message: 'page must be between 1 and 100', path: ['page'] }] });
    const syntax = await gql({ query: '{ retailProduct(' });
    expect(syntax.status).toBe(400);
    expect(syntax.json.success).toBe(false);
    const unknownField = await gql({ query: '{ nope }' });
    expect(unknownField.status).toBe(400);
    const batch = await gql([{ query: '{ __typename }' }]);
    expect(batch.status).toBe(400);
    expect(batch.json.errors[0].message).toMatch(/batched requests are not supported/);
    const get = await fetch(`${base}/api/graphql?query={__typename}`, { headers: { 'api-key': key } });
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ success: false, errors: [{ code: 405 }] });
    const text = await fetch(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain', 'api-key': key }, body: '{}' });
    expect(text.status).toBe(415);
    const big = await gql({ query: `{ __typename } # ${'x'.repeat(5000)}` });
    expect(big.status).toBe(413);
    const persisted = await gql({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } });
    expect(persisted.status).toBe(400);
    expect(persisted.json.errors[0].message).toMatch(/persisted queries are not supported/);
    const broken = await gql('{"query": ');
    expect(broken.status).toBe(400);
    expect(callsSince(before)).toEqual([]);
  });

  it('refuses an Accept that allows no JSON type with 406 and the envelope, before anything is held, run or charged', async () => {
    const { accountId } = await metering.admin.createAccount({ units: 10, plan: 'unlimited' });
    const own = (await metering.admin.createKey(accountId)).key;
    const query = { query: '{ retailProduct(asin: "B08KTZ8249") { title } }' };
    const before = core.calls.length;
    for (const accept of ['image/png', 'text/html', 'toH', 'application/xml', 'text/event-stream', 'application/json;q=0']) {
      const res = await gql(query, { 'api-key': own, accept });
      expect({ accept, status: res.status }).toEqual({ accept, status: 406 });
      expect(res.json).toEqual({ success: false, errors: [{ code: 406, message: expect.stringMatching(/application\/json or application\/graphql-response\+json/) }] });
    }
    expect(callsSince(before)).toEqual([]);
    expect((await metering.admin.summary(accountId)).balance).toBe(10);
    // What the graphql-over-HTTP audit sends still works (no Accept at all: content-negotiation.test.ts; fetch sends */*).
    for (const accept of ['application/json', 'application/graphql-response+json', '*/*', 'text/html, application/json;q=0.1']) {
      const res = await gql(query, { 'api-key': own, accept });
      expect({ accept, status: res.status }).toEqual({ accept, status: 200 });
    }
    expect((await metering.admin.summary(accountId)).balance).toBe(6);
  });

  it('answers 402 for the whole request when the balance cannot cover every operation', async () => {
    const poor = await newKey(1, 'unlimited');
    const before = core.calls.length;
    const res = await gql({ query: '{ retailProduct(asin: "B08KTZ8249") { title variants { asin } } }' }, { 'api-key': poor });
    expect(res.status).toBe(402);
    expect(res.json).toEqual({ success: false, errors: [{ code: 402, message: expect.any(String) }] });
    expect(callsSince(before)).toEqual([]);
    const single = await gql({ query: '{ retailProduct(asin: "B08KTZ8249") { title } }' }, { authorization: `Bearer ${poor}` });
    expect(single.status).toBe(200);
    expect(single.json.extensions).toMatchObject({ unitsCharged: 1, unitsRemaining: 0 });
  });

  it('answers 429 with Retry-After and 400 for conflicting credentials', async () => {
    const limited = await newKey(10, 'tiny');
    const first = await gql({ query: '{ retailProduct(asin: "B08KTZ8249") { title } }' }, { 'api-key': limited });
    expect(first.status).toBe(200);
    const second = await gql({ query: '{ retailProduct(asin: "B08KTZ8249") { title } }' }, { 'api-key': limited });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(second.json.errors[0].code).toBe(429);
    const conflicting = await gql({ query: '{ __typename }' }, { 'api-key': key, authorization: `Bearer ${limited}` });
    expect(conflicting.status).toBe(400);
    expect(conflicting.json.success).toBe(false);
  });
});
