import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseCategoryTaxonomy } from './taxonomy.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/categories/${name}`, import.meta.url)), 'utf8');

describe('"All departments" directory (project fixtures)', () => {
  const us = parseCategoryTaxonomy(fixture('site-directory-us.html'), marketplaceByCode('US'));

  it('gives one node per department, headings without id or URL', () => {
    expect(us.map((g) => g.name)).toEqual(['Amazon Music', 'Electronics', 'Computers']);
    expect(us[0]).toMatchObject({ name: 'Amazon Music', breadcrumbPath: 'Amazon Music' });
    expect(us[0]!.id).toBeUndefined();
  });

  it('takes node ids from node= and rh=n:, rebuilds URLs on the marketplace, and drops foreign hosts', () => {
    const electronics = us.find((g) => g.name === 'Electronics')!;
    expect(electronics.subcategories?.map((c) => [c.id, c.name])).toEqual([
      ['1266092011', 'TV & Video'],
      ['172541', 'Headphones'],
      ['502394', 'Camera & Photo'],
      // the second "Electronics" column is merged into the first
      ['2335752011', 'Cell Phones & Accessories'],
    ]);
    expect(electronics.subcategories?.[1]).toMatchObject({ url: 'https://www.amazon.com/b?node=172541', breadcrumbPath: 'Electronics > Headphones' });
  });

  it('keeps programme pages without a node as named links', () => {
    expect(us[0]!.subcategories?.[0]).toMatchObject({ name: 'Amazon Music Unlimited', url: 'https://www.amazon.com/music/unlimited' });
    expect(us[0]!.subcategories?.[0]?.id).toBeUndefined();
  });

  it('reads the DE directory', () => {
    const de = parseCategoryTaxonomy(fixture('site-directory-de.html'), marketplaceByCode('DE'));
    expect(de.map((g) => g.name)).toEqual(['Elektronik & Computer', 'Küche, Haushalt & Wohnen', 'Bücher & Audible']);
    expect(de[1]!.subcategories?.[0]).toMatchObject({
      id: '3310781',
      name: 'Kaffee, Tee & Espresso',
      url: 'https://www.amazon.de/b?node=3310781',
      breadcrumbPath: 'Küche, Haushalt & Wohnen > Kaffee, Tee & Espresso',
    });
  });

  it('reads the navigation menu when the page has no directory', () => {
    const html = `<div id="hmenu-content">
      <ul class="hmenu hmenu-visible" data-menu-id="1"><li><div class="hmenu-item hmenu-title">shop by department</div></li>
        <li><a class="hmenu-item" data-menu-id="5" href="javascript:void(0)"><div>Electronics</div></a></li></ul>
      <ul class="hmenu hmenu-translateX-right" data-menu-id="5">
        <li><a class="hmenu-item hmenu-back-button" href="javascript:void(0)"><div>main menu</div></a></li>
        <li><div class="hmenu-item hmenu-title">electronics</div></li>
        <li><a class="hmenu-item" href="/b/?node=1266092011&amp;ref_=nav_em_t1_0_2_5_2">TV &amp; Video</a></li>
        <li><a class="hmenu-item" href="https://www.amazon.com/b/?node=172541&amp;ref_=nav_em">Headphones</a></li></ul></div>`;
    const tree = parseCategoryTaxonomy(html, marketplaceByCode('US'));
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ name: 'electronics' });
    expect(tree[0]!.subcategories?.map((c) => [c.id, c.name, c.url])).toEqual([
      ['1266092011', 'TV & Video', 'https://www.amazon.com/b?node=1266092011'],
      ['172541', 'Headphones', 'https://www.amazon.com/b?node=172541'],
    ]);
  });

  it('answers nothing for a page without department groups', () => {
    expect(parseCategoryTaxonomy('<html><body><h2>Hi</h2></body></html>', marketplaceByCode('US'))).toEqual([]);
  });
});
