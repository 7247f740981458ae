import { describe, expect, it } from 'vitest';
import { compareValues } from './compare.js';
import { aggregate, formatAccuracyTable, scoreCase, type CorpusCase } from './score.js';

const entry = { id: 'x', operation: 'search', domain: 'DE', url: 'https://www.amazon.de/s?k=a', status: 200, page: 'p' };
function caseOf(golden: Partial<CorpusCase['golden']>): CorpusCase {
  return { entry, pageFile: '', golden: { id: 'x', operation: 'search', domain: 'DE', request: {}, ...golden } };
}

describe('compare rules', () => {
  it('exact trims and collapses white space, numbers compare equal', () => {
    expect(compareValues('exact', ' a  b\u00a0c ', 'a b c')).toBe(true);
    expect(compareValues('exact', 'a', 'b')).toBe(false);
    expect(compareValues('exact', 3, 3)).toBe(true);
    expect(compareValues('exact', 3, '3')).toBe(false);
  });
  it('null is met by null, an omitted field or an empty list, nothing else', () => {
    expect(compareValues('exact', null, undefined)).toBe(true);
    expect(compareValues('exact', null, null)).toBe(true);
    expect(compareValues('breadcrumbNames', null, [])).toBe(true);
    expect(compareValues('exact', null, { value: 1 })).toBe(false);
  });
  it('set, subset (partial objects), contains, approx0.01', () => {
    expect(compareValues('set', ['a', 'b'], ['b ', 'a'])).toBe(true);
    expect(compareValues('set', ['a', 'b'], ['a', 'b', 'c'])).toBe(false);
    expect(compareValues('subset', [{ name: 'A', value: '1' }], [{ name: 'B', value: '2' }, { name: 'A', value: ' 1' }])).toBe(true);
    expect(compareValues('subset', [{ asin: 'X' }], [{ asin: 'Y', text: 'X' }])).toBe(false);
    expect(compareValues('contains', '12,99', 'EUR 12,99 inkl.')).toBe(true);
    expect(compareValues('approx0.01', 1.0, 1.009)).toBe(true);
    expect(compareValues('approx0.01', 1.0, 1.02)).toBe(false);
  });
  it('imageIds compares the id after /images/I/ as single values or sets', () => {
    const a = 'https://m.media-amazon.com/images/I/518yJPrEaxL._SY344_.jpg';
    expect(compareValues('imageIds', a, 'https://images-na.ssl-images-amazon.com/images/I/518yJPrEaxL.jpg')).toBe(true);
    expect(compareValues('imageIds', a, 'https://m.media-amazon.com/images/I/41xx._SY344_.jpg')).toBe(false);
    expect(compareValues('imageIds', [a], [a.replace('_SY344_', '_SL1500_')])).toBe(true);
  });
  it('breadcrumbNames compares the names of category objects in order', () => {
    expect(compareValues('breadcrumbNames', ['Books', 'Kids'], [{ name: 'Books' }, { name: 'Kids' }])).toBe(true);
    expect(compareValues('breadcrumbNames', ['Books', 'Kids'], [{ name: 'Kids' }, { name: 'Books' }])).toBe(false);
  });
});

describe('scoreCase', () => {
  const golden = {
    expect: { data: { r: { results: [{ asin: 'A', title: 't0' }, { asin: 'B', title: 't1' }, { asin: 'C', title: 't2' }] } } },
    compare: { 'data.r.results[*].asin': 'orderedAsins', 'data.r.results[0..1].title': 'exact' },
  };
  it('expands [*] and [a..b] per position and counts a longer list as one more miss', () => {
    const scores = scoreCase(caseOf(golden), {
      data: { r: { results: [{ asin: 'A', title: 't0' }, { asin: 'X', title: 'bad' }, { asin: 'C' }, { asin: 'D' }] } },
    });
    expect(scores.map((s) => [s.path, s.ok])).toEqual([
      ['data.r.results[0].asin', true],
      ['data.r.results[1].asin', false],
      ['data.r.results[2].asin', true],
      ['data.r.results.length', false],
      ['data.r.results[0].title', true],
      ['data.r.results[1].title', false],
    ]);
    const acc = aggregate(scores);
    expect(acc.overall).toEqual({ matched: 3, total: 6 });
    expect(formatAccuracyTable(acc)).toContain('| results[*].asin | 50% (2/4) | 50% (2/4) |');
  });
  it('scores error goldens against the error and fails data fields when an error came back', () => {
    const err = caseOf({ expectError: { status: 503, reason: 'UPSTREAM_BLOCKED' }, compare: { status: 'exact', reason: 'exact' } });
    expect(scoreCase(err, { error: { status: 503, reason: 'UPSTREAM_BLOCKED' } }).every((s) => s.ok)).toBe(true);
    expect(scoreCase(err, { data: {} }).some((s) => s.ok)).toBe(false);
    expect(scoreCase(caseOf(golden), { error: { status: 502 } }).some((s) => s.ok)).toBe(false);
  });
  it('compares expect leaves no compare key covers as exact', () => {
    const scores = scoreCase(caseOf({ expect: { data: { p: { title: 'T', n: 2 } } }, compare: { 'data.p.title': 'contains' } }), {
      data: { p: { title: 'The T', n: 3 } },
    });
    expect(scores.map((s) => [s.path, s.rule, s.ok])).toEqual([
      ['data.p.title', 'contains', true],
      ['data.p.n', 'exact', false],
    ]);
  });
});
