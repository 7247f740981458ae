import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseCategoryPage } from './category.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/category/${name}`, import.meta.url)), 'utf8');
const NBSP = '\u00a0';

describe('category page (project fixtures)', () => {
  it('reads the node, its path, its children and its products (US)', () => {
    const page = parseCategoryPage(fixture('b-node-172541-us.html'), { marketplace: marketplaceByCode('US'), categoryId: '172541', page: 1 });
    expect(page).toMatchObject({
      id: '172541',
      name: 'Headphones, Earbuds & Accessories',
      url: 'https://www.amazon.com/b?node=172541',
      breadcrumbPath: 'Electronics > Headphones, Earbuds & Accessories',
    });
    expect(page.subcategories).toEqual([
      { id: '12097478011', name: 'Earbud Headphones', url: 'https://www.amazon.com/b?node=12097478011', breadcrumbPath: 'Electronics > Headphones, Earbuds & Accessories > Earbud Headphones' },
      { id: '12097479011', name: 'Over-Ear Headphones', url: 'https://www.amazon.com/b?node=12097479011', breadcrumbPath: 'Electronics > Headphones, Earbuds & Accessories > Over-Ear Headphones' },
      { id: '12097480011', name: 'On-Ear Headphones', url: 'https://www.amazon.com/b?node=12097480011', breadcrumbPath: 'Electronics > Headphones, Earbuds & Accessories > On-Ear Headphones' },
    ]);
    const results = page.productResults!.results!;
    expect(results.map((r) => [r.asin, r.sponsored])).toEqual([
      ['B0FXCAT001', false],
      ['B0FXCAT002', true],
      ['B0FXCAT003', false],
    ]);
    expect(results[1]!.price).toMatchObject({ value: 1226, display: '$1,226.00' });
    expect(page.productResults!.pageInfo).toMatchObject({ currentPage: 1n, totalPages: 3n, totalResults: 60000n, hasNextPage: true });
  });

  it('reads a DE page 2 with German numbers', () => {
    const page = parseCategoryPage(fixture('b-node-3310781-de-page2.html'), { marketplace: marketplaceByCode('DE'), categoryId: '3310781', page: 2 });
    expect(page.breadcrumbPath).toBe('Küche, Haushalt & Wohnen > Küchen- & Haushaltsgeräte > Kaffee, Tee & Espresso');
    expect(page.subcategories?.map((c) => c.id)).toEqual(['3310811', '3310821']);
    expect(page.productResults!.results![0]).toMatchObject({ price: { value: 1226, display: `1.226,00${NBSP}€` }, rating: 4.3, ratingsTotal: 2204n });
    expect(page.productResults!.results![1]!.sponsored).toBe(true);
    expect(page.productResults!.pageInfo).toMatchObject({ currentPage: 2n, totalPages: 7n, hasPrevPage: true, totalResults: 5000n });
  });

  it('names the node from the breadcrumb strip when the sidebar tree is missing', () => {
    const html = `<div id="wayfinding-breadcrumbs_feature_div"><ul><li><a href="/b?node=172282">Electronics</a></li><li><a href="/b?node=172541">Headphones</a></li></ul></div>`;
    const page = parseCategoryPage(html, { marketplace: marketplaceByCode('US'), categoryId: '172541', page: 1 });
    expect(page).toMatchObject({ name: 'Headphones', breadcrumbPath: 'Electronics > Headphones', subcategories: [] });
    expect(page.productResults!.results).toEqual([]);
  });
});
