import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseBestSellerCategories } from './bestseller-categories.js';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/bestseller-categories/${name}`, import.meta.url)), 'utf8');

describe('best-sellers root page departments (project fixtures)', () => {
  it('lists each department with its id and a rebuilt best-sellers URL (US)', () => {
    const categories = parseBestSellerCategories(fixture('zgbs-us-root.html'), marketplaceByCode('US'));
    expect(categories).toHaveLength(12);
    expect(categories[0]).toEqual({ id: 'amazon-devices', name: 'Amazon Devices & Accessories', url: 'https://www.amazon.com/gp/bestsellers/amazon-devices' });
    expect(categories.find((c) => c.id === 'hi')?.name).toBe('Tools & Home Improvement');
    // "Any Department" is the selected root, not a category.
    expect(categories.some((c) => /Any Department/.test(c.name ?? ''))).toBe(false);
  });

  it('reads the DE tree with the marketplace’s own names', () => {
    const categories = parseBestSellerCategories(fixture('zgbs-de-root.html'), marketplaceByCode('DE'));
    expect(categories.find((c) => c.id === 'ce-de')).toEqual({ id: 'ce-de', name: 'Elektronik & Foto', url: 'https://www.amazon.de/gp/bestsellers/ce-de' });
  });

  it('reads the 2019-20 tree and drops repeats', () => {
    const html = `<div id="zg_browseRoot"><ul><li><span class="zg_selected">Any Department</span></li><ul>
      <li><a href="https://www.amazon.com/Best-Sellers-Books/zgbs/books/ref=zg_bs_nav_0">Books</a></li>
      <li><a href="/Best-Sellers-Books/zgbs/books/ref=zg_bs_nav_1">Books</a></li>
      <li><a href="/gp/bestsellers/toys-and-games/ref=zg_bs_nav_0">Toys &amp; Games</a></li></ul></ul></div>`;
    expect(parseBestSellerCategories(html, marketplaceByCode('US')).map((c) => c.id)).toEqual(['books', 'toys-and-games']);
  });

  it('answers nothing for a page without the tree', () => {
    expect(parseBestSellerCategories('<html><body>dogs</body></html>', marketplaceByCode('US'))).toEqual([]);
  });
});
