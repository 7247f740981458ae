/** The compact record and the answer around it: what is left out, cut and trimmed, and how a cursor continues. */
import { parseParameters, registryOperation } from '@retail/gateway-shared';
import { describe, expect, it } from 'vitest';
import { RULE_MESSAGES, fieldSelection } from '@retail/contract';
import { DEFAULT_LIST_LIMIT, cursorAt, splitAnswerArguments } from './answer-arguments.js';
import { compactAnswer } from './answer.js';
import { recordOf } from './tools.js';
import { MAX_TEXT, compactRecord } from './compact-record.js';

const product = registryOperation('GetProduct');
const search = registryOperation('SearchProducts');

const results = (n: number) => Array.from({ length: n }, (_, i) => ({ asin: `B0000000${String(i).padStart(2, '0')}`, title: `item ${i}`, sponsored: false }));

describe('compact record', () => {
  it('leaves out empty values and bulky fields, keeps false and 0, and says which bulky fields went', () => {
    const data = { retailProduct: { title: 'Kettle', coupon: null, subtitle: '', isPrime: false, ratingsTotal: 0, imageUrls: ['https://x/1.jpg'], featureBullets: [], categories: [] } };
    const compact = compactRecord(product.response, data, { limit: 5, offset: 0 });
    expect(compact.record).toEqual({ retailProduct: { title: 'Kettle', isPrime: false, ratingsTotal: 0 } });
    expect(compact.bulky).toEqual(['imageUrls']);
    expect(compact.emptied).toBe(true);
  });

  it('trims a long text with a marker that says how much is missing, but never a link', () => {
    const long = 'a'.repeat(MAX_TEXT + 42);
    const url = `https://www.amazon.com/dp/B000000000?${'q'.repeat(MAX_TEXT)}`;
    const compact = compactRecord(product.response, { retailProduct: { title: long, url } }, { limit: 5, offset: 0 });
    const record = compact.record.retailProduct as Record<string, string>;
    expect(record.title).toBe(`${'a'.repeat(MAX_TEXT)}… [42 more characters]`);
    expect(record.url).toBe(url);
    expect(compact.trimmed).toBe(1);
  });

  it('cuts the record\'s lists to the limit from the cursor\'s offset, and lists inside items to their first 3', () => {
    const refinements = [{ name: 'Brand', options: Array.from({ length: 9 }, (_, i) => ({ name: `b${i}`, value: `v${i}` })) }];
    const data = { retailProductSearchResults: { productResults: { results: results(12) }, availableRefinements: refinements } };
    const first = compactRecord(search.response, data, { limit: 5, offset: 0 });
    const root = first.record.retailProductSearchResults as any;
    expect(root.productResults.results.map((r: any) => r.title)).toEqual(['item 0', 'item 1', 'item 2', 'item 3', 'item 4']);
    expect(root.availableRefinements[0].options).toHaveLength(3);
    expect(first.cuts).toEqual([
      { path: 'productResults.results', from: 0, shown: 5, total: 12, nested: false },
      { path: 'availableRefinements.options', from: 0, shown: 3, total: 9, nested: true },
    ]);
    const third = compactRecord(search.response, data, { limit: 5, offset: 10 });
    expect((third.record.retailProductSearchResults as any).productResults.results.map((r: any) => r.title)).toEqual(['item 10', 'item 11']);
  });
});

describe('compact answer', () => {
  it('is a summary line then the compact JSON, the same object as structuredContent, with the next cursor while a list has more', () => {
    const data = { retailProductSearchResults: { productResults: { results: results(12) } } };
    const answer = compactAnswer(search.response, search.dataRoot, data, { limit: DEFAULT_LIST_LIMIT, offset: 0 }, { unitsCharged: 1 });
    const [summary, json] = (answer.content[0] as { text: string }).text.split('\n');
    expect(JSON.parse(json!)).toEqual(answer.structuredContent);
    expect(summary).toContain('productResults.results items 1–5 of 12');
    expect(summary).toContain(`cursor "${cursorAt(5)}"`);
    expect(answer._meta).toEqual({ unitsCharged: 1, nextCursor: cursorAt(5) });
    const last = compactAnswer(search.response, search.dataRoot, data, { limit: DEFAULT_LIST_LIMIT, offset: 10 }, {});
    expect(last._meta).toEqual({});
    expect((last.content[0] as { text: string }).text).toContain('items 11–12 of 12');
  });

  it('takes listLimit and cursor out of the arguments, and refuses a listLimit out of range or a cursor it did not give, by name', () => {
    expect(splitAnswerArguments({ asin: 'B000000000', listLimit: 20, cursor: cursorAt(40) }, recordOf(product))).toEqual({ ok: true, shape: { limit: 20, offset: 40 }, params: { asin: 'B000000000' } });
    expect(splitAnswerArguments({ asin: 'B000000000' }, recordOf(product))).toEqual({ ok: true, shape: { limit: DEFAULT_LIST_LIMIT, offset: 0 }, params: { asin: 'B000000000' } });
    const bad = splitAnswerArguments({ searchTerm: 'kettle', limit: 20, listLimit: 0, cursor: 'page-2' }, recordOf(search));
    expect(bad).toEqual({
      ok: false,
      errors: [
        { message: RULE_MESSAGES.range('listLimit', 1, 100), path: ['listLimit'] },
        { message: RULE_MESSAGES.cursor('cursor'), path: ['cursor'] },
      ],
      params: { searchTerm: 'kettle', limit: 20 },
    });
  });
});

describe('fields', () => {
  it('are dotted paths of the record, through lists, in wire or proto names; an unknown one is refused by name', () => {
    expect(fieldSelection(recordOf(product), ['title', 'price.value', 'price', 'categories.name'])).toEqual({ ok: true, tree: { title: {}, price: {}, categories: { name: {} } }, protoPaths: ['title', 'price.value', 'price', 'categories.name'] });
    expect(fieldSelection(recordOf(search), ['productResults.results.asin'])).toEqual({ ok: true, tree: { productResults: { results: { asin: {} } } }, protoPaths: ['product_results.results.asin'] });
    expect(fieldSelection(recordOf(search), ['product_results.results.is_prime'], 'proto')).toMatchObject({ ok: true, tree: { productResults: { results: { isPrime: {} } } } });
    expect(fieldSelection(recordOf(search), ['productResults.results.asin'], 'proto')).toEqual({ ok: false, path: 'productResults.results.asin' });
    expect(fieldSelection(recordOf(product), ['title', 'price.valu'])).toEqual({ ok: false, path: 'price.valu' });
    expect(fieldSelection(recordOf(product), ['title.length'])).toEqual({ ok: false, path: 'title.length' });
  });

  it('stay among the arguments for the shared call, which refuses a bad one with the REST message', () => {
    expect(splitAnswerArguments({ asin: 'B000000000', fields: 'title' }, recordOf(product))).toEqual({ ok: true, shape: { limit: DEFAULT_LIST_LIMIT, offset: 0, fields: { title: {} } }, params: { asin: 'B000000000', fields: 'title' } });
    const refused = parseParameters(product, { asin: 'B000000000', fields: 'title,price.valu' }, 'mcp');
    expect(refused).toEqual({ ok: false, errors: [{ message: RULE_MESSAGES.unknownField('fields', 'price.valu'), path: ['fields'] }] });
    expect(parseParameters(product, { asin: 'B000000000', fields: ['title'] }, 'mcp')).toMatchObject({ ok: false, errors: [{ message: RULE_MESSAGES.string('fields') }] });
    expect(parseParameters(product, { asin: 'B000000000', fields: ' , ' }, 'mcp')).toMatchObject({ ok: false, errors: [{ path: ['fields'] }] });
    expect(parseParameters(product, { asin: 'B000000000', fields: ' title , price.value' }, 'mcp')).toMatchObject({ ok: true, request: { readMask: { paths: ['title', 'price.value'] } } });
  });

  it('name the fields of each item when the record is a list (autocomplete suggestions)', () => {
    const autocomplete = registryOperation('GetAutocompleteSuggestions');
    const shape = splitAnswerArguments({ fields: 'suggestion' }, recordOf(autocomplete));
    if (!shape.ok) throw new Error('refused');
    const data = { [autocomplete.dataRoot]: [{ suggestion: 'kettle' }, { suggestion: 'kettle black' }] };
    expect(compactAnswer(autocomplete.response, autocomplete.dataRoot, data, shape.shape, {}).structuredContent).toEqual({ data: data });
    expect(parseParameters(autocomplete, { searchTerm: 'k', fields: 'suggestion.x' }, 'mcp')).toMatchObject({ ok: false });
  });

  it('answer only the fields named, bulky ones included, still compact', () => {
    const data = { retailProduct: { title: 'Kettle', asin: 'B000000000', isPrime: false, price: { value: 20, currency: 'USD' }, imageUrls: ['https://x/1.jpg'], coupon: null } };
    const shape = splitAnswerArguments({ fields: 'price.value,imageUrls,coupon' }, recordOf(product));
    if (!shape.ok) throw new Error('refused');
    const answer = compactAnswer(product.response, product.dataRoot, data, shape.shape, {});
    expect(answer.structuredContent).toEqual({ data: { retailProduct: { price: { value: 20 }, imageUrls: ['https://x/1.jpg'] } } });
  });
});
