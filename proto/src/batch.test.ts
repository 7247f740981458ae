import { describe, expect, it } from 'vitest';
import { BATCH_ERROR_FIELD, BATCH_ITEM_KINDS, batchKindOfCase, batchKindOfRpc } from './batch.js';
import { BATCH_OPERATION } from './operations.js';

describe('batch items declared in the proto', () => {
  it('pair each BatchItem case with the unary RPC taking that request and the result case holding its response', () => {
    expect(BATCH_ITEM_KINDS.map((k) => [k.itemField.localName, k.method.name, k.resultField.localName])).toEqual([
      ['product', 'GetProduct', 'product'],
      ['asinFromGtin', 'GetAsinFromGtin', 'asinFromGtin'],
      ['gtinFromAsin', 'GetGtinFromAsin', 'gtinFromAsin'],
      ['variants', 'GetProductVariants', 'variants'],
      ['offers', 'GetProductOffers', 'offers'],
      ['reviews', 'GetProductReviews', 'reviews'],
      ['stock', 'GetStockEstimate', 'stock'],
      ['sales', 'GetSalesEstimate', 'sales'],
    ]);
    for (const kind of BATCH_ITEM_KINDS) {
      expect(kind.itemField.message).toBe(kind.method.input);
      expect(kind.resultField.message).toBe(kind.method.output);
    }
    expect(BATCH_ERROR_FIELD.message?.typeName).toBe('retail.v1.ErrorDetail');
  });

  it('finds a kind by case and by RPC, and none for an operation a batch cannot run', () => {
    expect(batchKindOfCase('offers')?.method.name).toBe('GetProductOffers');
    expect(batchKindOfRpc('GetStockEstimate')?.itemField.localName).toBe('stock');
    expect(batchKindOfRpc('SearchProducts')).toBeUndefined();
    expect(batchKindOfCase('error')).toBeUndefined();
  });

  it('give BatchLookup its client-facing names, a POST route beside the lookups', () => {
    expect(BATCH_OPERATION.method.methodKind).toBe('server_streaming');
    expect(BATCH_OPERATION.options).toMatchObject({ restPath: '/api/retail/batch', httpMethod: 'POST', mcpTool: 'retail_batch', graphqlFields: ['retailProducts'] });
  });
});
