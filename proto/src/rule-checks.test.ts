import type { DescMessage } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { GetProductRequestSchema, GetProductReviewsRequestSchema, SearchProductsRequestSchema } from './index.js';
import { requestRules } from './parameter-rules.js';
import { checkEnumNumber, checkGroups, checkNumber, checkString, enumNumber } from './rule-checks.js';

const rule = (schema: DescMessage, name: string) => requestRules(schema).find((r) => r.name === name)!;

describe('declared rules, one reading', () => {
  it('reads the (retail.v1.parameter) option of every request field', () => {
    const term = rule(SearchProductsRequestSchema, 'searchTerm');
    expect({ name: term.name, field: term.field.name, required: term.required, minLength: term.minLength, maxLength: term.maxLength, pattern: term.pattern }).toEqual({
      name: 'searchTerm',
      field: 'search_term',
      required: true,
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
    });
    expect(rule(SearchProductsRequestSchema, 'sort').enumValues).toContain('PRICE_ASCENDING');
    expect(rule(GetProductRequestSchema, 'gtin').check).toBe('gtin');
    expect(rule(GetProductRequestSchema, 'url').description).toMatch(/Give exactly one of asin, url or gtin\.$/);
  });
});

describe('the message table', () => {
  const term = rule(SearchProductsRequestSchema, 'searchTerm');
  it('renders string rules', () => {
    expect(checkString(term, '')).toBe('searchTerm must not be empty');
    expect(checkString(term, 'x'.repeat(201))).toBe('searchTerm must be at most 200 characters long');
    expect(checkString(term, '  ')).toBe('searchTerm must not be blank');
    expect(checkString(rule(GetProductRequestSchema, 'asin'), 'B00')).toBe('asin must match ^[A-Za-z0-9]{10}$');
    expect(checkString(term, 'kettle')).toBeUndefined();
    expect(checkString(rule(GetProductRequestSchema, 'gtin'), '978-0-306-40615-8')).toBe('gtin has an invalid check digit');
    expect(checkString(rule(GetProductRequestSchema, 'gtin'), '978-0-306-40615-7')).toBeUndefined();
  });
  it('renders bounds and enums the same from numbers and from names', () => {
    const page = rule(GetProductReviewsRequestSchema, 'page');
    expect(checkNumber(page, 0)).toBe('page must be between 1 and 100');
    expect(checkNumber(rule(SearchProductsRequestSchema, 'minPrice'), -1)).toBe('minPrice must be at least 0');
    expect(checkNumber(page, Number.NaN)).toBe('page must be a number');
    const rating = rule(GetProductReviewsRequestSchema, 'rating');
    expect(checkEnumNumber(rating, 99, true)).toBe((enumNumber(rating, 'SIX_STAR') as { message: string }).message);
    expect(enumNumber(rating, 'FIVE_STAR')).toEqual({ number: expect.any(Number) });
  });
  it('names the first member when no key is given and the first extra one when several are', () => {
    const rules = requestRules(GetProductRequestSchema);
    expect(checkGroups(rules, () => false)).toMatchObject({ message: 'asin, url or gtin must be provided', parameter: { name: 'asin' } });
    expect(checkGroups(rules, (r) => r.name !== 'url' && r.name !== 'domain')).toMatchObject({ message: 'provide exactly one of asin, url or gtin', parameter: { name: 'gtin' } });
  });
});
