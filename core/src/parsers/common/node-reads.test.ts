import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadHtml } from './dom.js';
import { attrOf, textOf, textWithout } from './node-reads.js';
import { PageIndex } from './page-index.js';

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
