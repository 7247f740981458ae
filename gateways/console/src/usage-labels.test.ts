import { describe, expect, it } from 'vitest';
import { labelUsage, publicCallName } from './usage-labels.js';

describe('usage labelled as its caller made it', () => {
  it('names an operation by its REST route, GraphQL field or MCP tool, from the proto', () => {
    expect(publicCallName('GetProduct', 'rest')).toBe('GET /api/retail/product');
    expect(publicCallName('GetProduct', 'graphql')).toBe('retailProduct');
    expect(publicCallName('GetProduct', 'mcp')).toBe('retail_product');
    expect(publicCallName('GetProductVariants', 'graphql')).toBe('retailProduct.variants');
    expect(publicCallName('CreateWatch', 'rest')).toBe('POST /api/retail/watches');
  });

  it('names background work and counters without an interface by the REST route of what they read', () => {
    expect(labelUsage({ date: '2026-05-01', operation: 'GetProduct', interface: 'watcher', calls: 3 })).toEqual({
      date: '2026-05-01', operation: 'GetProduct', interface: 'watcher', calls: 3, call: 'GET /api/retail/product', via: 'Watches',
    });
    expect(labelUsage({ date: '2026-05-01', operation: 'GetProductHistory', calls: 1 })).toMatchObject({ call: 'GET /api/retail/product/history', via: 'not recorded' });
    expect(labelUsage({ date: '2026-05-01', operation: 'GetProduct', interface: 'mcp', calls: 1 })).toMatchObject({ call: 'retail_product', via: 'MCP tool' });
  });

  it('keeps the RPC name of an operation the contract does not declare', () => {
    expect(publicCallName('RetiredOperation', 'rest')).toBe('RetiredOperation');
  });
});
