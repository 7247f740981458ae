import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { loadHtml, visibleText, type Element } from './common/dom.js';
import { textWithout } from './common/node-reads.js';
import { readDetailRows } from './product-details.js';
import { readProductPage } from './product.js';
import { closestOf, skipping, visibleTextOf } from './product-reads.js';
import { loadIndexedPage } from './results/dom.js';
import { readTopReviews } from './reviews.js';
import { readBestSellersRanks } from './sales.js';
import { readStockSignals } from './stock.js';
import { readVariants } from './variants.js';

const fixture = (path: string) => readFileSync(new URL(`../../../test/fixtures/pages/${path}`, import.meta.url), 'utf8');

const PAGES = [
  { path: 'pages/com/product/dp-B0FXTUS001-modern-espresso.html', domain: 'US', asin: 'B0FXTUS001' },
  { path: 'pages/de/product/dp-B0FXTDE001-kaffeevollautomat.html', domain: 'DE', asin: 'B0FXTDE001' },
  { path: 'reviews/dp-B0FXREV001-top-reviews.html', domain: 'US', asin: 'B0FXREV001' },
] as const;

/** The compound lists the product and reviews readers leave out or climb to. */
const SKIPPED = [
  'script, style, noscript',
  '.release-year',
  'i, .a-icon-alt, .a-letter-space, script',
  'input, script, style, .video-block, [data-hook="review-body-read-more"], .a-hidden, .a-expander-header, .a-cardui-footer',
  '.aok-hidden, #replacementPartsFitmentBullet',
  '#breadcrumb-back-link, .a-breadcrumb-divider',
  '.a-price-range',
];

describe('product-page reads without copies', () => {
  it.each(PAGES)('$path: the reads answer as cheerio on every element', ({ path }) => {
    const $ = loadHtml(fixture(path));
    const elements = $('*').toArray() as Element[];
    for (const selector of SKIPPED) {
      const skip = skipping(selector);
      for (const el of elements) {
        expect(skip(el)).toBe($(el).is(selector));
        const copy = $(el).clone();
        copy.find(selector).remove();
        expect(textWithout(el, skip)).toBe(copy.text());
        expect(closestOf(el, skip)).toBe($(el).closest(selector).get(0));
      }
    }
    for (const el of elements) expect(visibleTextOf(el)).toBe(visibleText($, el));
  });

  it('skipping refuses selectors that are not compounds', () => {
    expect(() => skipping('#a .b')).toThrow(/compounds/);
  });

  it.each(PAGES)('$path: reading every part leaves the indexed page unchanged', ({ path, domain, asin }) => {
    const html = fixture(path);
    const $ = loadIndexedPage(html);
    const before = $.html();
    const ctx = { marketplace: marketplaceByCode(domain), asin };
    try {
      readProductPage($, html, ctx);
    } catch {
      /* a page without a title still has every other part read */
    }
    readVariants($, html, ctx);
    readStockSignals($);
    readBestSellersRanks($, ctx.marketplace);
    readTopReviews($, ctx);
    expect($.html()).toBe(before);
  });

  it('detail bullets: the value leaves out the first visible label, the first label (even in noscript) names the row', () => {
    const html = `<div id="detailBullets_feature_div"><ul>
      <li><noscript><b>Hidden:</b></noscript><span class="a-text-bold">Brand :</span> <span>Acme</span><script>x()</script></li>
      <li><span class="a-text-bold">Model:</span> <b>X-1</b> <style>.a{}</style></li>
      <li><span>No label</span><ul><li><b>Nested:</b> row</li></ul></li>
    </ul></div>`;
    expect(readDetailRows(loadIndexedPage(html))).toEqual([
      { name: 'Hidden', value: 'Acme' },
      { name: 'Model', value: 'X-1' },
      // The nested list's label names its parent row (what the copy-and-remove reading answered).
      { name: 'Nested', value: 'No label row' },
    ]);
  });
});
