import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cleanText, loadHtml, visibleText, type Element } from './dom.js';
import { attrOf, closestOf, textOf, textWithout } from './node-reads.js';
import { PageIndex } from './page-index.js';
import { elementTest } from './selector-match.js';

const fixture = fileURLToPath(new URL('../../../../test/fixtures/pages/search/s-jp-fixture.html', import.meta.url));

describe('text and attributes without cheerio wrappers', () => {
  const $ = loadHtml(readFileSync(fixture, 'utf8'));
  const index = new PageIndex($._root);

  it('textOf equals .text() of every element', () => {
    for (const el of index.elements) expect(textOf(el)).toBe($(el).text());
  });

  it('attrOf equals .attr() (boolean attributes, option and checkbox values included)', () => {
    const page = loadHtml('<input type="checkbox" checked><option>Blue</option><select disabled=""></select><a href="/x">x</a>');
    for (const el of [...page('*').toArray(), ...index.elements.slice(0, 200)]) {
      for (const name of ['href', 'value', 'checked', 'disabled', 'class', 'data-asin', 'constructor']) expect(attrOf(el, name)).toBe(page(el).attr(name));
    }
  });

  it('textWithout equals clone + remove + text', () => {
    const skip = (el: { name: string; attribs: Record<string, string> }) => el.name === 'script' || (el.attribs.class ?? '').split(/\s+/).includes('a-offscreen');
    for (const el of index.elements) {
      const clone = $(el).clone();
      clone.find('script, .a-offscreen').remove();
      expect(textWithout(el, skip)).toBe(clone.text());
    }
  });
});

const page = (path: string) => readFileSync(new URL(`../../../../test/fixtures/pages/${path}`, import.meta.url), 'utf8');

/** The compound lists the product and reviews readers leave out or climb to. */
const COMPOUND_LISTS = [
  'script, style, noscript',
  '.release-year',
  'i, .a-icon-alt, .a-letter-space, script',
  'input, script, style, .video-block, [data-hook="review-body-read-more"], .a-hidden, .a-expander-header, .a-cardui-footer',
  '.aok-hidden, #replacementPartsFitmentBullet',
  '#breadcrumb-back-link, .a-breadcrumb-divider',
  '.a-price-range',
];

describe('reads without copies, on product and review pages', () => {
  it.each([
    'pages/com/product/dp-B0FXTUS001-modern-espresso.html',
    'pages/de/product/dp-B0FXTDE001-kaffeevollautomat.html',
    'reviews/dp-B0FXREV001-top-reviews.html',
  ])('%s: elementTest, textWithout, closestOf and visibleText answer as cheerio on every element', (path) => {
    const $ = loadHtml(page(path));
    const elements = $('*').toArray() as Element[];
    for (const selector of COMPOUND_LISTS) {
      const test = elementTest(selector);
      for (const el of elements) {
        expect(test(el)).toBe($(el).is(selector));
        const copy = $(el).clone();
        copy.find(selector).remove();
        expect(textWithout(el, test)).toBe(copy.text());
        expect(closestOf(el, test)).toBe($(el).closest(selector).get(0));
      }
    }
    for (const el of elements) {
      const copy = $(el).clone();
      copy.find('script, style, noscript').remove();
      expect(visibleText(el)).toBe(cleanText(copy.text()));
    }
  });

  it('elementTest refuses selectors that are not lists of compounds', () => {
    expect(() => elementTest('#a .b')).toThrow(/compounds/);
  });
});
