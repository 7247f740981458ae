import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadHtml } from './dom.js';
import { withDomIndex } from './indexed-query.js';

const page = readFileSync(
  fileURLToPath(new URL('../../../../test/fixtures/pages/pages/com/product/dp-B0FXTUS001-modern-espresso.html', import.meta.url)),
  'utf8',
);

describe('withDomIndex', () => {
  const plain = loadHtml(page);
  const indexed = withDomIndex(loadHtml(page));
  const SELECTORS = [
    '#productTitle',
    '#corePriceDisplay_desktop_feature_div .priceToPay .a-offscreen',
    '#feature-bullets li',
    '#feature-bullets li:not(.aok-hidden) span.a-list-item',
    '#usedBuySection.a-accordion-active, #landingImage',
    '#add-to-cart-button, #buy-now-button',
    '#prodDetails tr',
    'table.prodDetTable tr',
    'div.twister-plus-buying-options-price-data',
    '.couponLabelText',
    '.a-breadcrumb-divider .a-list-item',
    'li.a-breadcrumb-divider',
    'input[name="ASIN"]',
    'input[type=hidden]',
    '#wayfinding-breadcrumbs_feature_div > ul > li a',
    '[id^="couponBadge"]',
    'span.a-offscreen',
    '#nosuchid .x',
  ];
  it.each(SELECTORS)('answers %s exactly as cheerio does', (selector) => {
    const want = plain(selector).toArray().map((el) => plain(el).toString());
    const got = indexed(selector).toArray().map((el) => indexed(el).toString());
    expect(got).toEqual(want);
  });
  it('still takes elements and keeps the static API', () => {
    const title = indexed('#productTitle').first();
    expect(indexed(title.toArray()[0]!).text().trim()).toContain('Acme Barista Pro');
    expect(indexed.root().find('#productTitle').length).toBe(1);
  });
});
