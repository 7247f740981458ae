import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseBestSellersPage } from './bestsellers.js';
import { parseOffersPage } from './offers.js';
import { parseReviewsPage, parseTopReviews } from './reviews.js';
import { parseBestSellersRanks } from './sales.js';
import { parseSearchPage } from './search.js';
import { parseSellerProfile, parseSellerStorefront } from './seller.js';
import { parseStockSignals } from './stock.js';
import { parseVariantsPage } from './variants.js';

/*
 * A parser that throws turns a marketplace oddity into a 500. Every page-kind parser is run over
 * every page the project wrote (of any kind: a search parser handed a product page must answer an
 * empty result, not fail) and over broken input.
 */
const fixturesDir = fileURLToPath(new URL('../../../test/fixtures/pages', import.meta.url));
const htmlFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? htmlFiles(path) : path.endsWith('.html') ? [path] : [];
  });

const m = marketplaceByCode('DE');
const ctx = { marketplace: m, asin: 'B000000000', sellerId: 'A1FIXTURE', page: 1 };
const PARSERS: Record<string, (html: string) => unknown> = {
  search: (h) => parseSearchPage(h, ctx),
  bestsellers: (h) => parseBestSellersPage(h, ctx),
  reviews: (h) => parseReviewsPage(h, ctx),
  topReviews: (h) => parseTopReviews(h, ctx),
  offers: (h) => parseOffersPage(h, ctx),
  variants: (h) => parseVariantsPage(h, ctx),
  storefront: (h) => parseSellerStorefront(h, ctx),
  profile: (h) => parseSellerProfile(h, ctx),
  stock: (h) => parseStockSignals(h, m),
  ranks: (h) => parseBestSellersRanks(h, m),
};

describe('page-kind parsers never throw', () => {
  const pages = htmlFiles(fixturesDir).map((file) => [file.slice(fixturesDir.length + 1), readFileSync(file, 'utf8')] as const);
  const broken = [
    ['empty', ''],
    ['garbage', '<<<>>>&#xZZ;"{[( <div data-client-recs-list="[{&quot;id&quot;:1}"> <script>var dataToReturn = { "dimensionValuesDisplayData" : {"B0X":'],
    ['json', '{"a":1}'],
  ] as const;

  it.each(Object.keys(PARSERS))('%s', (name) => {
    expect(pages.length).toBeGreaterThan(5);
    for (const [page, html] of [...pages, ...broken]) {
      expect(() => PARSERS[name]!(html), page).not.toThrow();
    }
  });
});
