import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadHtml, type AnyNode, type CheerioAPI } from './dom.js';
import { textOf } from './node-reads.js';
import { PageIndex } from './page-index.js';
import { loadIndexedPage, query, selectAll } from './page.js';
import { compile } from './selector.js';

const fixtures = fileURLToPath(new URL('../../../../test/fixtures/pages/', import.meta.url));
const read = (path: string) => readFileSync(join(fixtures, path), 'utf8');

/** The selectors the result-page parsers ask, plus the grammar's corners. */
const SELECTORS = [
  '[data-component-type="s-search-result"]',
  'li.s-result-item[data-asin]',
  '.s-result-list .s-result-item[data-asin]',
  '#s-refinements, #refinements, #leftNavContainer',
  '.s-pagination-item, #pagn .pagnLink, #pagn .pagnDisabled, .a-pagination li',
  '[data-component-type="s-result-info-bar"] h1 span',
  '.s-breadcrumb .a-color-state, .s-desktop-toolbar h1 span',
  'a.s-pagination-next',
  '.a-pagination .a-last a',
  '[id="gridItemRoot"]',
  '[class*="p13n-sc-css-line-clamp"]',
  '.a-icon-row a .a-size-small',
  '[role="tree"] [role="group"] [role="treeitem"] a, #zg_browseRoot ul ul li a',
  'i.a-icon-prime, .aod-prime-badge, [aria-label*="Prime"]',
  'input[name^="offeringID"]',
  '[id^="aod-price-"] .a-price:not(.a-text-price) .a-offscreen',
  '.a-price:not(.a-text-price, .a-size-small)',
  'link[rel="CANONICAL"]',
  'input[TYPE=hidden]',
  '[class~="a-price"]',
  '[class|="a"]',
  '[id$="-title"]',
  'div > span',
  'body > div a',
  'span span span',
  '[data-asin] [data-asin]',
  'h2, h2 a, a h2',
  '*',
  'a:not([href])',
  '.a-offscreen, script, style',
  'title',
  'img',
];

function check($: CheerioAPI, index: PageIndex, scopes: readonly AnyNode[]): number {
  let compared = 0;
  for (const selector of SELECTORS) {
    expect(compile(selector), selector).toBeDefined();
    expect(index.select(selector), selector).toEqual($(selector).toArray());
    for (const scope of scopes) {
      expect(index.select(selector, scope), `${selector} in ${(scope as { name?: string }).name}`).toEqual($(scope).find(selector).toArray());
      compared++;
    }
  }
  return compared;
}

function sampleScopes(index: PageIndex): AnyNode[] {
  const step = Math.max(1, Math.floor(index.elements.length / 40));
  return index.elements.filter((_, i) => i % step === 0);
}

describe('PageIndex.select answers exactly as cheerio', () => {
  for (const page of ['search/s-de-fixture.html', 'search/s-jp-fixture.html', 'offers/aod-B0FXOFFR01-current.html', 'pages/com/product/dp-B0FXTUS001-modern-espresso.html']) {
    it(page, () => {
      for (const withStartIndices of [true, false]) {
        const $ = loadHtml(read(page), { withStartIndices });
        const index = new PageIndex($._root);
        expect(check($, index, sampleScopes(index))).toBeGreaterThan(0);
      }
    });
  }

  it('scopes a find to the context element like cheerio (the element itself may match the leftmost part)', () => {
    const $ = loadHtml(
      '<div class="a" id="outer"><section class="a b" id="card"><p class="b"><span class="c">x</span></p><span class="c">y</span></section></div><i class="c"></i>',
      { withStartIndices: true },
    );
    const index = new PageIndex($._root);
    const card = $('#card')[0]!;
    for (const selector of ['.a .c', '.a > .c', '.b .c', '.a .b .c', 'div .c', '#outer .c', '#card > span', '.c']) {
      expect(index.select(selector, card), selector).toEqual($(card).find(selector).toArray());
      expect(index.select(selector), selector).toEqual($(selector).toArray());
    }
  });

  it('leaves unsupported selectors to cheerio', () => {
    for (const selector of ['a + b', 'div ~ p', 'li:first-child', 'a:contains(x)', '.a\\:b', '[data-x="a\\"b"]', 'p::before', '[href="x" i]']) {
      expect(compile(selector), selector).toBeUndefined();
    }
    const page = loadIndexedPage('<ul><li>a</li><li>b</li></ul>');
    expect(query(page, 'li:first-child').toArray().map((el) => textOf(el))).toEqual(['a']);
    expect(selectAll(page, undefined, 'li + li').map((el) => textOf(el))).toEqual(['b']);
  });

  it('compares attribute values as css-select does (case-insensitive HTML attributes, ~= never with white space)', () => {
    const $ = loadHtml('<input type="HIDDEN" name="Q"><a rel="NoFollow" class="x  y" data-v="a b"></a><p lang="en-US"></p>', { withStartIndices: true });
    const index = new PageIndex($._root);
    for (const selector of ['input[type=hidden]', 'input[name=q]', 'a[rel~=nofollow]', '[class~="x"]', '[data-v~="a b"]', '[lang|=en]', '[lang|=EN]', '[class^=""]', '[class*=" "]']) {
      expect(index.select(selector), selector).toEqual($(selector).toArray());
    }
  });
});

const corpus = process.env.RETAIL_CORPUS;
describe.skipIf(!corpus)('PageIndex.select on the corpus pages', () => {
  it('answers every selector at page level and in sampled scopes as cheerio does', () => {
    const pages = readdirSync(join(corpus!, 'pages'), { recursive: true })
      .map(String)
      .filter((p) => p.endsWith('.html'));
    let compared = 0;
    for (const page of pages) {
      const $ = loadHtml(readFileSync(join(corpus!, 'pages', page), 'utf8'), { withStartIndices: true });
      const index = new PageIndex($._root);
      compared += check($, index, sampleScopes(index).slice(0, 12));
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
