import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseAuthorPage } from './author.js';
import { parseAutocompleteJson } from './autocomplete.js';
import { parseBestSellerCategories } from './bestseller-categories.js';
import { parseCategoryPage } from './category.js';
import { parseDealsPage } from './deals.js';
import { parseCategoryTaxonomy } from './taxonomy.js';

/*
 * The catalogue parsers (deals, autocomplete, best-seller categories, author, taxonomy, category)
 * never throw: each runs over every page the project wrote, of any kind, and over broken input;
 * a page of the wrong kind answers an empty record, which the handlers turn into UPSTREAM_ERROR.
 */
const fixturesDir = fileURLToPath(new URL('../../../test/fixtures/pages', import.meta.url));
const pageFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? pageFiles(path) : /\.(html|json)$/.test(path) ? [path] : [];
  });

const m = marketplaceByCode('JP');
const PARSERS: Record<string, (body: string) => unknown> = {
  deals: (b) => parseDealsPage(b, { marketplace: m, page: 1 }),
  autocomplete: (b) => parseAutocompleteJson(b),
  bestsellerCategories: (b) => parseBestSellerCategories(b, m),
  author: (b) => parseAuthorPage(b, { marketplace: m, authorId: 'B000000000', page: 1 }),
  taxonomy: (b) => parseCategoryTaxonomy(b, m),
  category: (b) => parseCategoryPage(b, { marketplace: m, categoryId: '1', page: 1 }),
};

const BROKEN = [
  '',
  '<<<>>>&#xZZ;"{[(',
  '<script type="a-state">{"prefetchedData":{"entity":{"rankedPromotions":[null,1,"x",{"product":{"entity":{"asin":42}}}]}}}</script>',
  '<script type="a-state">{"rankedPromotions":[{"product":{"entity":{"asin":"B000000001","buyingOptions":[{"price":{"entity":{"priceToPay":{"moneyValueOrRange":{"value":{"amount":"abc"}}}}}}]}}}]}</script>',
  '<script type="application/ld+json">{"@type":"Person","name":{"x":1},"image":[{}]}</script>',
  '<div id="departments"><ul><li class="s-navigation-indent-x"><span class="a-text-bold"></span></li></ul></div>',
  '<a class="nav_a" href="http://[::1">x</a><div id="shopAllLinks"><div class="popover-grouping"><h2 class="popover-category-name">A</h2><ul><li><a href="javascript:alert(1)">j</a></li></ul></div></div>',
  '{"suggestions":[null,{"value":7},{"type":"KEYWORD"}]}',
  '[null]',
];

describe('catalogue parsers never throw', () => {
  const pages = pageFiles(fixturesDir).map((file) => [file.slice(fixturesDir.length + 1), readFileSync(file, 'utf8')] as const);

  it.each(Object.keys(PARSERS))('%s', (name) => {
    expect(pages.length).toBeGreaterThan(20);
    for (const [page, body] of [...pages, ...BROKEN.map((b, i) => [`broken-${i}`, b] as const)]) {
      expect(() => PARSERS[name]!(body), page).not.toThrow();
    }
  });

  it('a deal with a non-number amount has no price rather than a wrong one', () => {
    const deals = parseDealsPage(BROKEN[3]!, { marketplace: marketplaceByCode('US'), page: 1 });
    expect(deals.results.map((d) => [d.asin, d.dealPrice])).toEqual([['B000000001', undefined]]);
  });
});
