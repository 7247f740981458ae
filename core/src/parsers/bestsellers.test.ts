import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { categoryIdFromHref, parseBestSellersPage } from './bestsellers.js';

const recs = (ids: string[], offset = 0) =>
  JSON.stringify(ids.map((id, i) => ({ id, metadataMap: { 'render.zg.rank': String(offset + i + 1) }, linkParameters: {} }))).replace(/"/g, '&quot;');

const gridItem = (asin: string, rank: number, title: string, price: string, stars: string, count: string) => `
<div id="gridItemRoot" class="a-column a-span12 a-text-center"><div id="p13n-asin-index-${rank - 1}" class="a-cardui p13n-grid-content">
  <div class="a-section zg-bdg-ctr"><div class="a-section zg-bdg-body"><span class="zg-bdg-text">#${rank}</span></div></div>
  <div class="zg-grid-general-faceout"><div id="${asin}" class="p13n-sc-uncoverable-faceout">
    <a class="a-link-normal" href="/x/dp/${asin}/ref=zg_bs_kitchen_sccl_${rank}"><img alt="${title}" src="https://images-na.ssl-images-amazon.com/images/I/71Fx${rank}._AC_UL300_.jpg" class="p13n-product-image"></a>
    <a class="a-link-normal" href="/x/dp/${asin}/ref=zg_bs_kitchen_sccl_${rank}"><span><div class="_cDEzb_p13n-sc-css-line-clamp-3_g3dy1">${title}</div></span></a>
    <div class="a-icon-row"><a class="a-link-normal" title="${stars}" href="/product-reviews/${asin}"><i class="a-icon a-icon-star-small"><span class="a-icon-alt">${stars}</span></i> <span class="a-size-small">${count}</span></a></div>
    <div class="a-row"><span class="a-size-base a-color-price"><span class="_cDEzb_p13n-sc-price_3mJ9Z">${price}</span></span></div>
  </div></div></div></div>`;

/** A DE best-sellers page (project fixture, 2022+ layout): 2 rendered cards, 4 ranks in the embedded JSON. */
const PAGE = `<html><head><link rel="canonical" href="https://www.amazon.de/gp/bestsellers/kitchen"></head><body>
<h1>Bestseller in Küche, Haushalt &amp; Wohnen</h1>
<div role="tree"><div role="treeitem" class="_p13n-zg-nav-tree-all_style_zg-browse-up__XTlqh">‹ <a href="/gp/bestsellers/ref=zg_bs_unv_kitchen_0">Alle Kategorien</a></div>
  <div role="treeitem"><span class="_p13n-zg-nav-tree-all_style_zg-selected__1SfhQ">Küche, Haushalt &amp; Wohnen</span></div>
  <div role="group"><div role="treeitem"><a href="/gp/bestsellers/kitchen/3167641/ref=zg_bs_nav_kitchen_1">Kochen &amp; Backen</a></div>
  <div role="treeitem"><a href="/Best-Sellers-Kueche/zgbs/kitchen/3312261/ref=zg_bs_nav_kitchen_1">Kaffee, Tee &amp; Espresso</a></div></div></div>
<div class="p13n-desktop-grid" data-client-recs-list="${recs(['B0FXBS0001', 'B0FXBS0002', 'B0FXBS0003', 'B0FXBS0004'])}">
${gridItem('B0FXBS0001', 1, 'Wasserkocher 1,7 l', '24,99 €', '4,6 von 5 Sternen', '12.345')}
${gridItem('B0FXBS0002', 2, 'Milchaufschäumer', '1.049,00 €', '4,2 von 5 Sternen', '987')}
</div>
<ul class="a-pagination"><li class="a-disabled">← Vorherige Seite</li><li class="a-selected"><a href="?pg=1">1</a></li><li class="a-normal"><a href="?pg=2">2</a></li><li class="a-last"><a href="?pg=2">Nächste Seite →</a></li></ul>
</body></html>`;

describe('best-sellers page', () => {
  const data = parseBestSellersPage(PAGE, { marketplace: marketplaceByCode('DE'), categoryId: 'kitchen' });

  it('returns every rank of the embedded ranking, with card fields where a card is rendered', () => {
    const results = data.productResults!.results!;
    expect(results.map((r) => [r.asin, r.bestSellersRank])).toEqual([['B0FXBS0001', 1n], ['B0FXBS0002', 2n], ['B0FXBS0003', 3n], ['B0FXBS0004', 4n]]);
    expect(results[0]).toMatchObject({ title: 'Wasserkocher 1,7 l', price: { value: 24.99, currency: 'EUR' }, rating: 4.6, ratingsTotal: 12345n, url: 'https://www.amazon.de/dp/B0FXBS0001' });
    expect(results[1]).toMatchObject({ price: { value: 1049 }, rating: 4.2, ratingsTotal: 987n });
    expect(results[3]).toEqual({ asin: 'B0FXBS0004', url: 'https://www.amazon.de/dp/B0FXBS0004', bestSellersRank: 4n });
    expect(data.productResults!.pageInfo).toMatchObject({ currentPage: 1n, totalPages: 2n, hasNextPage: true, hasPrevPage: false });
  });

  it('reads the category tree', () => {
    expect(data.categoryInfo).toEqual({
      currentCategory: { id: 'kitchen', name: 'Küche, Haushalt & Wohnen', url: 'https://www.amazon.de/gp/bestsellers/kitchen' },
      parentCategory: { name: 'Alle Kategorien', url: 'https://www.amazon.de/gp/bestsellers' },
      childCategories: [
        { id: 'kitchen/3167641', name: 'Kochen & Backen', url: 'https://www.amazon.de/gp/bestsellers/kitchen/3167641' },
        { id: 'kitchen/3312261', name: 'Kaffee, Tee & Espresso', url: 'https://www.amazon.de/gp/bestsellers/kitchen/3312261' },
      ],
    });
  });

  it('reads 2019–2021 pages without the JSON from their cards', () => {
    const old = `<ol id="zg-ordered-list"><li class="zg-item-immersion"><span class="zg-badge-text">#1</span><span class="aok-inline-block zg-item"><a class="a-link-normal" href="/x/dp/B0FXOLD001/ref=zg_bs_1"><div class="p13n-sc-truncate p13n-sc-line-clamp-1">Old Layout Item</div></a><span class="p13n-sc-price">$9.99</span></span></li>
      <li class="zg-item-immersion"><span class="zg-badge-text">#2</span><a href="/x/dp/B0FXOLD002/ref=zg_bs_2"><div class="p13n-sc-truncate">Second</div></a></li></ol>`;
    const results = parseBestSellersPage(old, { marketplace: marketplaceByCode('US') }).productResults!.results!;
    expect(results.map((r) => [r.asin, r.bestSellersRank, r.title])).toEqual([['B0FXOLD001', 1n, 'Old Layout Item'], ['B0FXOLD002', 2n, 'Second']]);
    expect(results[0]!.price).toMatchObject({ value: 9.99 });
  });

  it('turns best-sellers links into category ids', () => {
    expect(categoryIdFromHref('/Best-Sellers-Tools/zgbs/hi/552684/ref=zg_bs_nav_hi_1')).toBe('hi/552684');
    expect(categoryIdFromHref('https://www.amazon.com/gp/bestsellers/books/ref=pd_zg_ts_books')).toBe('books');
    expect(categoryIdFromHref('/gp/bestsellers/ref=zg_bs_unv')).toBeUndefined();
  });
});
