/**
 * `retail_batch` through the MCP SDK's own Client: listed with its small cap and truthful hints,
 * a batch of 10 with failures mixed in answered item by item in compact records (validated by the
 * SDK against the tool's outputSchema), charged one unit per success on the Redis ledger; more than
 * 10 items is the tool's 400, and a balance that cannot cover it the request's 402.
 */
import { describe, expect, it } from 'vitest';
import { runSdkClient } from '../harness/mcp-sdk-client.js';
import { useBatchStack } from './batch-stack.js';

const { missing, stack } = useBatchStack();

const product = (asin: string) => ({ operation: 'product', params: { asin } });
const TEN = [
  product('B0FXTUS001'),
  { operation: 'product/gtin-from-asin', params: { asin: 'B0FXTUS001' } },
  { operation: 'product/stock', params: { asin: 'B0FXTUS001' } },
  { operation: 'product/asin-from-gtin', params: { gtin: '9780316769488' } },
  product('B0FXTUS001'),
  { operation: 'product/asin-from-gtin', params: { gtin: '4006381333932' } },
  product('B0NOTFND77'),
  product('B0CAPTCHA1'),
  product('B00'),
  { operation: 'nope' },
];
const STATUSES = [200, 200, 200, 200, 200, 400, 404, 503, 400, 400];

const call = (key: string, items: unknown[]) => runSdkClient(`${stack().url}/api/mcp?toolsets=bulk&outputSchemas=true`, { 'api-key': key }, [{ op: 'listTools' }, { op: 'callTool', name: 'retail_batch', arguments: { items } }]);

describe.skipIf(missing !== null)('MCP retail_batch', () => {
  it('is listed with its cap of 10 and read-only hints, and answers 10 items with failures mixed in, compact records, charged one unit per success', async () => {
    const { accountId, key } = await stack().account(100, 'unlimited');
    const [, list, outcome] = await call(key, TEN);
    const tool = (list as any).result.tools.find((t: any) => t.name === 'retail_batch');
    expect(tool.description).toContain('At most 10 items per call');
    // The schema admits a task-sized batch (a task call is a bulk job); the cap of 10 without a task is said, and refused below.
    expect(tool.inputSchema.properties.items).toMatchObject({ type: 'array', minItems: 1, maxItems: 100_000, description: 'At most 10 without a task; up to 100,000 as a task.' });
    expect(tool.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(outcome).toMatchObject({ ok: true });
    const result = (outcome as any).result;
    expect(result.isError).toBeFalsy();
    const entries = result.structuredContent.data.retailBatch.items as any[];
    expect(entries.map((e) => [e.index, e.status])).toEqual(STATUSES.map((s, i) => [i, s]));
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    const record = entries[0].data.retailProduct;
    expect(record).toMatchObject({ asin: 'B0FXTUS001', title: expect.any(String), price: { currency: 'USD' } });
    for (const bulky of ['imageUrls', 'featureBullets', 'technicalSpecifications']) expect(record).not.toHaveProperty(bulky);
    expect(entries[5].errors).toEqual([{ code: 400, message: 'gtin has an invalid check digit', path: ['items', '5', 'params', 'gtin'] }]);
    expect(entries[9].errors[0]).toMatchObject({ code: 400, path: ['items', '9', 'operation'] });
    expect(result._meta).toMatchObject({ unitsCharged: 5, unitsRemaining: 95 });
    expect(await stack().balance(accountId)).toBe(95);
  });

  it('refuses 11 items as the tool\'s 400, and a balance too low as the request\'s 402, charging nothing', async () => {
    const { accountId, key } = await stack().account(2, 'unlimited');
    const [, , eleven, poor] = await runSdkClient(`${stack().url}/api/mcp?toolsets=bulk&outputSchemas=true`, { 'api-key': key }, [
      { op: 'listTools' },
      { op: 'callTool', name: 'retail_batch', arguments: { items: Array.from({ length: 11 }, () => product('B0FXTUS001')) } },
      { op: 'callTool', name: 'retail_batch', arguments: { items: [product('B0FXTUS001'), product('0316769487'), product('B0FXTDE001')] } },
    ]);
    expect((eleven as any).result).toMatchObject({ isError: true, structuredContent: { success: false, errors: [{ code: 400, message: 'items must hold between 1 and 10 entries', path: ['items'] }] } });
    expect(poor).toMatchObject({ ok: false });
    expect((poor as any).error).toMatch(/402|unit balance is too low/);
    expect(await stack().balance(accountId)).toBe(2);
  });

  it('prices a batch with dryRun, one unit per well-formed item, running and charging nothing', async () => {
    const { accountId, key } = await stack().account(2, 'unlimited');
    const [, , ten, three, notBoolean] = await runSdkClient(`${stack().url}/api/mcp?toolsets=bulk&outputSchemas=true`, { 'api-key': key }, [
      { op: 'listTools' },
      { op: 'callTool', name: 'retail_batch', arguments: { items: TEN, dryRun: true } },
      { op: 'callTool', name: 'retail_batch', arguments: { items: [product('B0FXTUS001'), product('0316769487')], dryRun: true } },
      { op: 'callTool', name: 'retail_batch', arguments: { items: [product('B0FXTUS001')], dryRun: 1 } },
    ]);
    // Items 5, 8 and 9 are malformed: they would be refused, not charged. The SDK Client validated each answer.
    expect((ten as any).result.structuredContent).toEqual({ dryRun: { units: 7, unitsRemaining: 2, affordable: false } });
    expect((three as any).result.structuredContent).toEqual({ dryRun: { units: 2, unitsRemaining: 2, affordable: true } });
    expect((three as any).result._meta).toMatchObject({ unitsCharged: 0 });
    expect((notBoolean as any).result).toMatchObject({ isError: true, structuredContent: { errors: [{ code: 400, message: 'dryRun must be true or false', path: ['dryRun'] }] } });
    expect(await stack().balance(accountId)).toBe(2);
  });
});
