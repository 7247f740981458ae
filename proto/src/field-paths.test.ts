/** The core's cut of a response to a read_mask, and the renderer reading it back from meta.read_mask. */
import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { fieldSelection, projectResponse, recordOfResponse } from './field-paths.js';
import { GetProductResponseSchema, GetAutocompleteSuggestionsResponseSchema, SearchProductsResponseSchema } from './gen/retail/v1/service_pb.js';
import { renderData } from './wire.js';

const selection = (desc: Parameters<typeof recordOfResponse>[0], paths: string[], naming: 'wire' | 'proto' = 'proto') => {
  const s = fieldSelection(recordOfResponse(desc)!, paths, naming);
  if (!s.ok) throw new Error(`refused ${s.path}`);
  return s;
};

describe('projectResponse', () => {
  it('keeps only the chosen fields of the record, through lists, and says so in meta.read_mask', () => {
    const response = create(SearchProductsResponseSchema, {
      retailProductSearchResults: {
        productResults: { results: [{ asin: 'B000000001', title: 'a', isPrime: true, price: { value: 2, currency: 'USD' } }, { asin: 'B000000002', title: 'b' }], pageInfo: { currentPage: 1n } },
        availableRefinements: [{ name: 'Brand', options: [] }],
      },
      meta: { cache: 1 },
    });
    const full = renderData(SearchProductsResponseSchema, response);
    const cut = projectResponse(SearchProductsResponseSchema, response, selection(SearchProductsResponseSchema, ['product_results.results.asin', 'product_results.results.price.value']));
    expect(cut.retailProductSearchResults?.availableRefinements).toEqual([]);
    expect(cut.retailProductSearchResults?.productResults?.pageInfo).toBeUndefined();
    expect(cut.retailProductSearchResults?.productResults?.results.map((r) => [r.asin, r.title, r.price?.value, r.price?.currency])).toEqual([['B000000001', undefined, 2, undefined], ['B000000002', undefined, undefined, undefined]]);
    expect(cut.meta?.readMask?.paths).toEqual(['product_results.results.asin', 'product_results.results.price.value']);
    expect(cut.meta?.cache).toBe(1);
    // Rendered: exactly the full rendering cut to the paths (no `[]` for the cut lists).
    const results = (full.retailProductSearchResults as { productResults: { results: { asin: string; price?: { value: number } }[] } }).productResults.results;
    expect(renderData(SearchProductsResponseSchema, cut)).toEqual({
      retailProductSearchResults: { productResults: { results: results.map((r) => ({ asin: r.asin, ...(r.price ? { price: { value: r.price.value } } : {}) })) } },
    });
  });

  it('cuts each item of a list root, and leaves null-when-unknown fields out unless chosen', () => {
    const list = create(GetAutocompleteSuggestionsResponseSchema, { retailSearchAutocompleteResults: [{ suggestion: 'kettle' }], meta: {} });
    expect(renderData(GetAutocompleteSuggestionsResponseSchema, projectResponse(GetAutocompleteSuggestionsResponseSchema, list, selection(GetAutocompleteSuggestionsResponseSchema, ['suggestion'])))).toEqual({ retailSearchAutocompleteResults: [{ suggestion: 'kettle' }] });
    const product = create(GetProductResponseSchema, { retailProduct: { title: 'Kettle', asin: 'B000000001' } });
    const titled = projectResponse(GetProductResponseSchema, product, selection(GetProductResponseSchema, ['title'], 'wire'));
    expect(renderData(GetProductResponseSchema, titled)).toEqual({ retailProduct: { title: 'Kettle' } });
    const withCoupon = projectResponse(GetProductResponseSchema, create(GetProductResponseSchema, { retailProduct: { title: 'Kettle' } }), selection(GetProductResponseSchema, ['title', 'coupon']));
    expect(renderData(GetProductResponseSchema, withCoupon)).toEqual({ retailProduct: { title: 'Kettle', coupon: null } });
  });
});
