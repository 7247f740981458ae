import { describe, expect, it } from 'vitest';
import { isLongerList } from './page-kind-harness.js';
import { scoreCase, type CorpusCase } from './score.js';

const golden = {
  id: 'x',
  operation: 'deals',
  domain: 'BR',
  request: {},
  expect: { data: { retailDeals: { productResults: { results: [{ asin: 'A' }, { asin: 'B' }] } } } },
  compare: { 'data.retailDeals.productResults.results[*].asin': 'orderedAsins' },
};
const c: CorpusCase = { entry: { id: 'x', operation: 'deals', domain: 'BR', url: 'https://www.amazon.com.br/deals', status: 200, page: 'p' }, pageFile: '', golden };
const answer = (...asins: string[]) => ({ data: { retailDeals: { productResults: { results: asins.map((asin) => ({ asin })) } } } });

describe('the longer-list rows the corpus tests report but do not hold', () => {
  it('are only the scorer\'s row for more items than the golden lists', () => {
    const longer = scoreCase(c, answer('A', 'B', 'C'));
    expect(longer.filter(isLongerList).map((s) => s.path)).toEqual(['data.retailDeals.productResults.results.length']);
    expect(longer.filter((s) => !isLongerList(s)).every((s) => s.ok)).toBe(true);
  });
  it('never excuse a wrong or missing item: a shorter or reordered list misses on its positions', () => {
    expect(scoreCase(c, answer('A')).filter((s) => !s.ok && !isLongerList(s)).map((s) => s.path)).toEqual(['data.retailDeals.productResults.results[1].asin']);
    expect(scoreCase(c, answer('B', 'A', 'C')).filter((s) => !s.ok && !isLongerList(s))).toHaveLength(2);
  });
});
