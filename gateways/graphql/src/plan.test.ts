/** The planner: which core calls a document makes, decided before any work. */
import { describe, expect, it } from 'vitest';
import { parse } from './graphql.js';
import { type PlanResult, planRequest } from './plan.js';
import { buildRetailSchema } from './schema.js';

const schema = buildRetailSchema();
const limits = { maxDepth: 10, maxOperations: 10 };

function plan(query: string, variables?: Record<string, unknown>): PlanResult {
  return planRequest(schema, { document: parse(query), variables }, limits);
}

function calls(query: string, variables?: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const result = plan(query, variables);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.plan.calls.map((c) => [c.operation.name, c.request]);
}

describe('planRequest', () => {
  it('plans the docs/contract.md example as one GetProduct call with the enum as its number', () => {
    expect(calls('{ retailProduct(asin: "B08KTZ8249", domain: DE) { title price { value currency display } isPrime } }')).toEqual([
      ['GetProduct', { asin: 'B08KTZ8249', domain: 4 }],
    ]);
  });

  it('uses the conversion RPC for an identifiers-only selection, and both when other fields are asked', () => {
    expect(calls('{ retailProduct(gtin: "9780131103627") { asin gtin } }').map(([n]) => n)).toEqual(['GetAsinFromGtin']);
    expect(calls('{ retailProduct(asin: "0131103628") { gtin } }').map(([n]) => n)).toEqual(['GetGtinFromAsin']);
    expect(calls('{ retailProduct(asin: "0131103628") { asin } }').map(([n]) => n)).toEqual(['GetGtinFromAsin']);
    expect(calls('{ retailProduct(asin: "0131103628") { title asin gtin } }').map(([n]) => n).sort()).toEqual(['GetGtinFromAsin', 'GetProduct']);
  });

  it('makes one call per operation field, nested arguments on their call, riders on the first', () => {
    expect(calls('{ retailProduct(asin: "0131103628") { topReviews { id } reviewsPaginated(page: 2, rating: FIVE_STAR) { reviews { id } } } }')).toEqual([
      ['GetProductReviews', { asin: '0131103628', page: 2n, rating: 2 }],
    ]);
    const search = calls('{ retailProductSearchResults(searchTerm: "tea") { availableRefinements { name } a: productResults(page: 1) { results { asin } } b: productResults(page: 2) { results { asin } } } }');
    expect(search).toEqual([
      ['SearchProducts', { searchTerm: 'tea', page: 1n }],
      ['SearchProducts', { searchTerm: 'tea', page: 2n }],
    ]);
    expect(calls('{ a: retailProduct(asin: "0131103628") { title } b: retailProduct(asin: "B08KTZ8249") { title } }')).toHaveLength(2);
  });

  it('follows fragments and @skip/@include exactly as execution does', () => {
    const query = `query($skip: Boolean!) { ...Q }
      fragment Q on Query { retailProduct(asin: "0131103628") { title @skip(if: $skip) ... on RetailProduct { variants { asin } } } }`;
    expect(calls(query, { skip: true }).map(([n]) => n)).toEqual(['GetProductVariants']);
    expect(calls(query, { skip: false }).map(([n]) => n).sort()).toEqual(['GetProduct', 'GetProductVariants']);
  });

  it('passes only the arguments the client wrote, so a URL host can set the domain', () => {
    expect(calls('{ retailProduct(url: "https://www.amazon.de/dp/B08KTZ8249") { title } }')).toEqual([['GetProduct', { url: 'https://www.amazon.de/dp/B08KTZ8249' }]]);
  });

  it('is free for introspection and __typename', () => {
    expect(calls('{ __typename __schema { types { name } } }')).toEqual([]);
    expect(calls('{ retailProduct(asin: "0131103628") { __typename } }')).toEqual([]);
  });

  it('refuses what it cannot serve, parameters outside their rules and requests over the bounds', () => {
    const byUrl = plan('{ retailProduct(url: "https://www.amazon.com/dp/B08KTZ8249") { gtin } }');
    expect(byUrl.ok).toBe(false);
    expect(!byUrl.ok && byUrl.errors[0]).toMatchObject({ message: 'gtin cannot be selected when the product is looked up by url' });
    const badPage = plan('{ retailSeller(sellerId: "A2L77EE7U53NWQ") { productResults(page: 0) { results { asin } } } }');
    expect(!badPage.ok && badPage.errors).toEqual([{ message: 'page must be between 1 and 100', path: ['page'] }]);
    const many = Array.from({ length: 11 }, (_, i) => `p${i}: retailProduct(asin: "B08KTZ824${i % 10}") { title }`).join(' ');
    const tooMany = plan(`{ ${many} }`);
    expect(!tooMany.ok && tooMany.errors[0]?.message).toBe('the query performs 11 operations; at most 10 are allowed per request');
    expect(!tooMany.ok && tooMany.operations).toHaveLength(11);
    const deep = plan(`{ retailProductCategoryTaxonomy { ${'subcategories { '.repeat(10)}id${' }'.repeat(10)} } }`);
    expect(!deep.ok && deep.errors[0]?.message).toMatch(/12 levels deep; at most 10/);
  });
});
