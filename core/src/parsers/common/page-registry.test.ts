import { describe, expect, it } from 'vitest';
import { textOf } from './node-reads.js';
import { pageIndexOf, selectAll } from './page-registry.js';
import { loadIndexedPage } from '../results/dom.js';

describe('loadIndexedPage', () => {
  it('registers the index for the page and its nodes, not for clones', () => {
    const $ = loadIndexedPage('<div id="a"><span class="b">x</span></div>');
    const span = $('.b')[0]!;
    expect(pageIndexOf(span)).toBeDefined();
    expect(pageIndexOf($(span).clone()[0]!)).toBeUndefined();
    expect(selectAll($, $('#a')[0], 'span').map((el) => textOf(el))).toEqual(['x']);
  });
});
