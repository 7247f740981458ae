import { create } from '@bufbuild/protobuf';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  Condition,
  GetAsinFromGtinResponseSchema,
  IdentifierPairSchema,
  OPERATIONS,
  ProductSchema,
  GetProductResponseSchema,
  RetailService,
  renderData,
  type OperationDescriptor,
} from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { parseParameters } from './parameters.js';
import { REGISTRY, buildRegistry, registryOperation } from './registry.js';
import { MAX_COUNT, parametersJsonSchema, responseJsonSchema } from './schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
// With the formats, so a `date-time` or `uri` in a schema is checked, not ignored.
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

describe('operation registry', () => {
  it('holds every RPC of RetailService with unique client-facing names', () => {
    // Every unary RPC; BatchLookup (server-streaming) is the batch registry's (batch-registry.ts).
    expect(REGISTRY.map((op) => op.name)).toEqual(RetailService.methods.filter((m) => m.methodKind === 'unary').map((m) => m.name));
    expect(REGISTRY).toHaveLength(17);
    for (const key of ['restPath', 'operationId', 'mcpTool'] as const) {
      expect(new Set(REGISTRY.map((op) => op[key])).size).toBe(17);
    }
    for (const op of REGISTRY) {
      expect(op.restPath).toMatch(/^\/api\/retail\//);
      expect(op.parameters.find((p) => p.name === 'domain')?.enumValues).toContain('US');
    }
  });

  it('refuses an RPC that lacks its options', () => {
    const first = OPERATIONS[0] as OperationDescriptor;
    const broken = { ...first, options: { ...first.options, mcpTool: '' } } as OperationDescriptor;
    expect(() => buildRegistry([broken])).toThrow(/mcpTool/);
  });

  it('derives parameters from the request message fields and their options', () => {
    const search = registryOperation('SearchProducts');
    const byName = Object.fromEntries(search.parameters.map((p) => [p.name, p]));
    expect(byName.searchTerm).toMatchObject({ kind: 'string', required: true, maxLength: 200 });
    expect(byName.page).toMatchObject({ kind: 'integer', minimum: 1, maximum: 100, defaultValue: '1', graphqlArgumentOf: 'productResults' });
    expect(byName.conditions).toMatchObject({ kind: 'enum-list', enumValues: ['NEW', 'USED', 'RENEWED'] });
    expect(byName.minPrice?.kind).toBe('number');
    expect(byName.sort?.enumValues).not.toContain('UNSPECIFIED');
    const product = registryOperation('GetProduct');
    expect(product.parameters.filter((p) => p.oneOfGroup === 'lookup').map((p) => p.name)).toEqual(['asin', 'url', 'gtin']);
    expect(product.dataRoot).toBe('retailProduct');
  });
});

describe('parseParameters', () => {
  const search = registryOperation('SearchProducts');

  it('coerces REST query strings, comma lists and enum names into a request', () => {
    const parsed = parseParameters(search, { searchTerm: 'tea', page: '2', minPrice: '1.5', conditions: 'NEW,USED', sort: 'MOST_RECENT', domain: 'DE' }, 'rest');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.request).toMatchObject({ searchTerm: 'tea', page: 2n, minPrice: 1.5, conditions: [Condition.NEW, Condition.USED] });
    expect(() => create(search.request, parsed.request)).not.toThrow();
  });

  it('names unknown, repeated, out-of-range and malformed parameters with REST paths', () => {
    const parsed = parseParameters(search, { searchTerm: ['a', 'b'], page: '101', limit: 'x', bogus: '1', sort: 'CHEAPEST' }, 'rest');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const byPath = Object.fromEntries(parsed.errors.map((e) => [e.path.join('.'), e.message]));
    expect(byPath).toEqual({
      'query.bogus': 'unknown parameter bogus',
      'query.searchTerm': 'searchTerm must be given once',
      'query.page': 'page must be between 1 and 100',
      'query.limit': 'limit must be an integer',
      'query.sort': 'sort must be one of FEATURED, MOST_RECENT, PRICE_ASCENDING, PRICE_DESCENDING, AVERAGE_CUSTOMER_REVIEW',
    });
  });

  it('takes typed JSON on GraphQL and MCP, with argument-name paths', () => {
    expect(parseParameters(search, { searchTerm: 'tea', page: 3, conditions: ['RENEWED'] }, 'mcp').ok).toBe(true);
    const wrong = parseParameters(search, { searchTerm: 'tea', page: '3' }, 'mcp');
    expect(wrong).toEqual({ ok: false, errors: [{ message: 'page must be an integer', path: ['page'] }] });
    expect(parseParameters(search, { searchTerm: 'tea', page: null }, 'graphql').ok).toBe(true);
    const missing = parseParameters(search, {}, 'graphql');
    expect(missing).toEqual({ ok: false, errors: [{ message: 'searchTerm is required', path: ['searchTerm'] }] });
  });
});

describe('JSON Schemas', () => {
  it('publishes each operation input as a closed object with domain defaulting to US', () => {
    for (const op of REGISTRY) {
      const schema = parametersJsonSchema(op) as { additionalProperties: boolean; properties: Record<string, { enum?: string[]; default?: unknown }> };
      expect(schema.additionalProperties).toBe(false);
      expect(schema.properties.domain).toMatchObject({ default: 'US' });
      expect(schema.properties.domain?.enum).toHaveLength(13);
      expect(ajv.validateSchema(schema)).toBe(true);
    }
  });

  it('describes rendered responses, nulls and counts as the wire rules say', () => {
    for (const op of REGISTRY) expect(ajv.validateSchema(responseJsonSchema(op))).toBe(true);
    const product = responseJsonSchema(registryOperation('GetProduct'));
    const validate = ajv.compile(product);
    const message = create(GetProductResponseSchema, {
      retailProduct: create(ProductSchema, { asin: 'B0TEST0001', title: 'Kettle', ratingsTotal: 12n, isPrime: false }),
    });
    const body = { data: renderData(GetProductResponseSchema, message) };
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ data: { retailProduct: { ...body.data.retailProduct as object, ratingsTotal: MAX_COUNT + 1 } } })).toBe(false);
    expect(validate({ data: { retailProduct: { ...body.data.retailProduct as object, ratingsTotal: '12' } } })).toBe(false);
  });

  it('closes the ASIN-from-GTIN record to exactly asin (or null) and gtin', () => {
    const validate = ajv.compile(responseJsonSchema(registryOperation('GetAsinFromGtin')));
    const unknown = create(GetAsinFromGtinResponseSchema, { retailProduct: create(IdentifierPairSchema, { gtin: '9780306406157' }) });
    expect(validate({ data: renderData(GetAsinFromGtinResponseSchema, unknown) })).toBe(true);
    expect(validate({ data: { retailProduct: { asin: 'B0TEST0001', gtin: '9780306406157' } } })).toBe(true);
    expect(validate({ data: { retailProduct: { asin: 'b0test0001', gtin: '9780306406157' } } })).toBe(false);
    expect(validate({ data: { retailProduct: { asin: null, gtin: '1', title: 'x' } } })).toBe(false);
    expect(validate({ data: { retailProduct: { gtin: '1' } } })).toBe(false);
  });
});
