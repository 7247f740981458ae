/**
 * `retailProducts(asins: [...])` end to end: 100 entries planned into one BatchLookup, each
 * entry's failure an `errors[]` entry at its index (not found, blocked, malformed), the request
 * charged one unit per entry that succeeded on the Redis ledger, identical entries fetched once, and
 * the whole request refused (402, 400 past 100 lookups) with nothing charged. The schema is read
 * back with graphql-js's own client tools.
 */
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery, printType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useBatchStack } from './batch-stack.js';

const { missing, stack } = useBatchStack();

async function gql(key: string, query: string, variables?: Record<string, unknown>) {
  const res = await fetch(`${stack().url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'api-key': key }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** 100 US entries: 60 that resolve, 10 not found, 10 blocked, 20 malformed; identical ones far apart. */
const ENTRIES: { asin: string; status: number }[] = Array.from({ length: 100 }, (_, i) => {
  switch (i % 10) {
    case 0: case 1: case 2: case 3: return { asin: 'B0FXTUS001', status: 200 };
    case 4: case 5: return { asin: '0316769487', status: 200 };
    case 6: return { asin: `B0NOTFND${String(i).padStart(2, '0')}`, status: 404 };
    case 7: return { asin: 'B0CAPTCHA1', status: 503 };
    case 8: return { asin: 'B00', status: 400 };
    default: return { asin: 'not an asin', status: 400 };
  }
});
const QUERY = 'query Batch($asins: [String!]!) { retailProducts(asins: $asins, domain: US) { asin title price { value currency } } }';

describe.skipIf(missing !== null)('GraphQL retailProducts', () => {
  it('answers 100 entries in order from one batch, each failure an error at its index, charged one unit per success', async () => {
    const { accountId, key } = await stack().account(1_000, 'unlimited');
    const fetched = stack().fetchesOf('/dp/B0FXTUS001');
    const { status, headers, body } = await gql(key, QUERY, { asins: ENTRIES.map((e) => e.asin) });
    expect(status).toBe(200);
    const products = body.data.retailProducts as any[];
    expect(products).toHaveLength(100);
    const errorsAt = new Map((body.errors as any[]).map((e) => [e.path[1] as number, e]));
    ENTRIES.forEach((entry, i) => {
      if (entry.status === 200) {
        expect(products[i]).toMatchObject({ asin: entry.asin });
        expect(errorsAt.has(i)).toBe(false);
      } else {
        expect(products[i]).toBeNull();
        expect(errorsAt.get(i)).toMatchObject({ path: ['retailProducts', i], code: entry.status, extensions: { code: entry.status } });
      }
    });
    expect(errorsAt.get(8)?.extensions.argumentPath).toEqual(['asin']);
    const successes = ENTRIES.filter((e) => e.status === 200).length;
    expect(successes).toBe(60);
    expect(headers.get('x-units-charged')).toBe(String(successes));
    expect(body.extensions).toMatchObject({ unitsCharged: successes, unitsRemaining: 1_000 - successes });
    expect(await stack().balance(accountId)).toBe(1_000 - successes);
    // Forty identical entries, one page fetch.
    expect(stack().fetchesOf('/dp/B0FXTUS001') - fetched).toBe(1);
  });

  it('plans a product field another operation fills into the same batch, beside an ordinary field, and publishes the list field', async () => {
    const { accountId, key } = await stack().account(100, 'unlimited');
    const { body, headers } = await gql(key, '{ one: retailProduct(asin: "0316769487") { title } many: retailProducts(asins: ["B0FXTUS001", "B0NOTFND99"]) { asin stockEstimate { inStock } } }');
    expect(body.data.one.title).toBeTypeOf('string');
    expect(body.data.many[0]).toMatchObject({ asin: 'B0FXTUS001', stockEstimate: { inStock: true } });
    expect(body.data.many[1]).toBeNull();
    expect(body.errors).toMatchObject([{ path: ['many', 1], code: 404 }]);
    // one (1) + the first entry's product and stock calls (2); the second entry's two calls failed.
    expect(headers.get('x-units-charged')).toBe('3');
    expect(await stack().balance(accountId)).toBe(97);
    const introspection = await gql(key, getIntrospectionQuery());
    const schema = buildClientSchema(introspection.body.data as IntrospectionQuery);
    const field = schema.getQueryType()!.getFields().retailProducts!;
    expect(String(field.type)).toBe('[RetailProduct]');
    expect(field.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['asins: [String!]!', 'domain: RetailDomain', 'skipOnIncident: SkipOnIncident']);
    expect(printType(schema.getType('RetailProduct')!)).toContain('stockEstimate');
  });

  it('refuses the whole request: 402 when the balance cannot cover every entry, 400 past 100 lookups, nothing charged', async () => {
    const { accountId, key } = await stack().account(3, 'unlimited');
    const poor = await gql(key, QUERY, { asins: ['B0FXTUS001', '0316769487', 'B0FXTUS001', 'B0FXTUS001'] });
    expect(poor.status).toBe(402);
    expect(poor.body).toMatchObject({ success: false, errors: [{ code: 402 }] });
    const many = await gql(key, QUERY, { asins: Array.from({ length: 101 }, () => 'B0FXTUS001') });
    expect(many.status).toBe(400);
    expect(many.body.errors[0].message).toBe('retailProducts asks for 101 lookups; at most 100 are allowed per request');
    expect(await stack().balance(accountId)).toBe(3);
  });
});
