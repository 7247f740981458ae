/** A job's arguments on GraphQL and MCP: the item form of every interface, malformed items as their own results. */
import { JobService } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { argumentsJsonSchema, parseCallArguments } from './job-arguments.js';
import { registryOperation } from './registry.js';

const CREATE_JOB = registryOperation(JobService.method.createJob.name);
const GET_JOB = registryOperation(JobService.method.getJob.name);

describe('parseCallArguments', () => {
  it('reads {operation, params} items into the proto items, a malformed one into a rejected item at its position', () => {
    const parsed = parseCallArguments(CREATE_JOB, {
      items: [{ operation: 'product', params: { asin: 'B0FXTUS001', domain: 'US' } }, { operation: 'nosuch' }, { operation: 'product/offers', params: { asin: 7 } }, { product: { asin: 'B0FXTUS001' } }],
      label: 'four',
    }, 'mcp');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const { items, rejectedItems, label } = parsed.request as { items: Array<{ request: { case: string; value: { asin: string } } }>; rejectedItems: Array<{ index: number; error: { message: string; fieldPath: string[] } }>; label: string };
    expect(label).toBe('four');
    expect(items.map((i) => [i.request.case, i.request.value.asin])).toEqual([['product', 'B0FXTUS001']]);
    expect(rejectedItems.map((r) => [r.index, r.error.fieldPath])).toEqual([[1, ['operation']], [2, ['params', 'asin']], [3, []]]);
    // The operation an item named stays with its refusal (the CSV download names it); none for the others.
    expect(rejectedItems.map((r) => (r as unknown as { operation: string }).operation)).toEqual(['', 'offers', '']);
    expect(rejectedItems[0]?.error.message).toMatch(/^operation must be one of product, /);
    // The proto form is no client's: an item written that way is refused as an unknown key.
    expect(rejectedItems[2]?.error.message).toBe('unknown parameter items[3].product');
  });

  it('refuses the call only for what no item answers for: items missing, not a list, none or too many, a bad label', () => {
    const message = (input: Record<string, unknown>) => {
      const parsed = parseCallArguments(CREATE_JOB, input, 'graphql');
      return parsed.ok ? undefined : parsed.errors.map((e) => [e.message, e.path]);
    };
    expect(message({})).toEqual([['items is required', ['items']]]);
    expect(message({ items: 'x' })).toEqual([['items must be a list', ['items']]]);
    expect(message({ items: [] })).toEqual([['items must hold between 1 and 100000 entries: a job has 1 to 100,000 items', ['items']]]);
    expect(message({ items: Array.from({ length: 100_001 }, () => ({ operation: 'product' })) })?.[0]?.[1]).toEqual(['items']);
    expect(message({ items: [{ operation: 'product', params: { asin: 'B0FXTUS001' } }], label: 'x'.repeat(201) })?.[0]?.[1]).toEqual(['label']);
  });

  it('leaves any other operation to parseParameters', () => {
    expect(parseCallArguments(GET_JOB, { id: 'nope' }, 'mcp')).toMatchObject({ ok: false, errors: [{ path: ['id'] }] });
  });
});

describe('argumentsJsonSchema', () => {
  it('states a job\'s items in the item form, required, 1 to 100,000, each one operation\'s {operation, params}', () => {
    const schema = argumentsJsonSchema(CREATE_JOB) as { required: string[]; properties: Record<string, any> };
    expect(schema.required).toEqual(['items']);
    expect(schema.properties.items).toMatchObject({ type: 'array', minItems: 1, maxItems: 100_000, description: expect.stringContaining('{"operation", "params"}') });
    const product = schema.properties.items.items.oneOf.find((s: any) => s.properties.operation.const === 'product');
    expect(product).toMatchObject({ required: ['operation'], additionalProperties: false, properties: { params: { properties: { asin: { type: 'string' } } } } });
    expect(Object.keys(schema.properties)).toEqual(['items', 'label', 'webhook']);
  });
});
