import { describe, expect, it } from 'vitest';
import { textOf } from './node-reads.js';
import { loadIndexedPage, loadPlainPage, query, selectAll } from './page.js';

const HTML = '<div id="a"><span class="b">x</span></div><p>y</p>';

describe('Page', () => {
  it('holds its own nodes in its index, not clones', () => {
    const page = loadIndexedPage(HTML);
    const span = page.$('.b')[0]!;
    expect(page.index!.holds(span)).toBe(true);
    expect(page.index!.holds(page.$(span).clone()[0]!)).toBe(false);
  });

  it('answers the same with and without an index, for its nodes and for clones', () => {
    for (const page of [loadIndexedPage(HTML), loadPlainPage(HTML)]) {
      const div = query(page, '#a')[0]!;
      expect(selectAll(page, div, 'span').map((el) => textOf(el))).toEqual(['x']);
      expect(selectAll(page, page.$(div).clone()[0], 'span').map((el) => textOf(el))).toEqual(['x']);
      expect(selectAll(page, undefined, 'div, p').map((el) => textOf(el))).toEqual(['x', 'y']);
    }
  });

  it('leaves a plain page without an index', () => {
    expect(loadPlainPage(HTML).index).toBeUndefined();
  });
});
