import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { loadIndexedPage } from './common/page.js';
import { parseProductPage, readProductPage } from './product.js';
import { parseProductPageParts } from './product-page.js';
import { parseTopReviews, readTopReviews } from './reviews.js';
import { parseBestSellersRanks, readBestSellersRanks } from './sales.js';
import { parseStockSignals, readStockSignals } from './stock.js';
import { parseVariantsPage, readVariants } from './variants.js';

const page = (path: string) => readFileSync(new URL(`../../../test/fixtures/pages/pages/${path}`, import.meta.url), 'utf8');

const PAGES = [
  { path: 'com/product/dp-B0FXTUS001-modern-espresso.html', domain: 'US', asin: 'B0FXTUS001' },
  { path: 'com/product/dp-0316769487-book-paperback.html', domain: 'US', asin: '0316769487' },
  { path: 'de/product/dp-B0FXTDE001-kaffeevollautomat.html', domain: 'DE', asin: 'B0FXTDE001' },
  { path: 'co.jp/product/dp-B0FXTJP001-denki-kettle.html', domain: 'JP', asin: 'B0FXTJP001' },
] as const;

describe('parseProductPageParts (one load of /dp/ for five operations)', () => {
  it.each(PAGES)('$path: every part equals its own parser on a load of its own', ({ path, domain, asin }) => {
    const html = page(path);
    const ctx = { marketplace: marketplaceByCode(domain), asin };
    const parts = parseProductPageParts(html, ctx);
    expect(parts.product).toEqual({ ok: true, value: parseProductPage(html, ctx) });
    expect(parts.variants).toEqual(parseVariantsPage(html, ctx));
    expect(parts.stock).toEqual(parseStockSignals(html, ctx.marketplace));
    expect(parts.ranks).toEqual(parseBestSellersRanks(html, ctx.marketplace));
    expect(parts.topReviews).toEqual(parseTopReviews(html, ctx));
    expect(parts.isProductPage).toBe(true);
  });

  it('a page without a title keeps why the record failed, and says it is no product page', () => {
    const parts = parseProductPageParts('<html><body><h2>Something else</h2></body></html>', { marketplace: marketplaceByCode('US'), asin: 'B0FXTUS001' });
    expect(parts.product.ok).toBe(false);
    expect(parts.product.ok === false && parts.product.cause).toMatch(/title/);
    expect(parts.isProductPage).toBe(false);
    expect(parts.topReviews).toEqual([]);
  });
});

describe('the indexed page is only read', () => {
  // The page index would go stale if a reader changed the page (common/page.ts loadIndexedPage).
  it.each(PAGES)('$path: reading every part leaves the page unchanged', ({ path, domain, asin }) => {
    const loaded = loadIndexedPage(page(path));
    const before = loaded.$.html();
    const ctx = { marketplace: marketplaceByCode(domain), asin };
    readProductPage(loaded, ctx);
    readVariants(loaded, ctx);
    readStockSignals(loaded);
    readBestSellersRanks(loaded, ctx.marketplace);
    readTopReviews(loaded, ctx);
    expect(loaded.$.html()).toBe(before);
  });
});
