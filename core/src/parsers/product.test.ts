import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorReason } from '@retail/contract';
import { CoreError } from '../errors.js';
import { marketplaceByCode } from '../marketplaces/index.js';
import { loadIndexedPage } from './common/page.js';
import { parseProduct, parseProductPage } from './product.js';
import { readDetailRows } from './product-details.js';

const fixture = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/pages/${path}`, import.meta.url)), 'utf8');
const US = marketplaceByCode('US');
const DE = marketplaceByCode('DE');

describe('parseProduct on a current US detail page', () => {
  const p = parseProduct(fixture('com/product/dp-B0FXTUS001-modern-espresso.html'), { marketplace: US, asin: 'b0fxtus001' });

  it('reads title, brand from the store byline, asin and canonical url', () => {
    expect(p.title).toBe('Acme Barista Pro Espresso Machine, 15 Bar, Stainless Steel');
    expect(p.brand).toBe('Acme');
    expect(p.asin).toBe('B0FXTUS001');
    expect(p.url).toBe('https://www.amazon.com/dp/B0FXTUS001');
  });
  it('takes the price to pay, never the struck list price, with grouping', () => {
    expect(p.price).toEqual({ symbol: '$', value: 1249.99, currency: 'USD', display: '$1,249.99' });
    expect(p.isPrime).toBe(true);
    expect(p.isNew).toBe(true);
    expect(p.isInStock).toBe(true);
  });
  it('reads rating, ratings count, coupon and seller', () => {
    expect(p.rating).toBe(4.6);
    expect(p.ratingsTotal).toBe(12345n);
    expect(p.coupon).toEqual({ label: 'Save $50.00 with coupon' });
    expect(p.seller).toEqual({ sellerId: 'A1FIXTURESELLR', name: 'Acme Direct' });
  });
  it('reads images from the hi-res attribute and the gallery JSON', () => {
    expect(p.mainImageUrl).toBe('https://m.media-amazon.com/images/I/71AcmeMainL._AC_SL1500_.jpg');
    expect(p.imageUrls).toEqual([
      'https://m.media-amazon.com/images/I/71AcmeMainL._AC_SL1500_.jpg',
      'https://m.media-amazon.com/images/I/81AcmeSideL._AC_SL1500_.jpg',
      'https://m.media-amazon.com/images/I/51AcmeBackL._AC_.jpg',
    ]);
  });
  it('keeps visible bullets only and strips direction marks from detail rows', () => {
    expect(p.featureBullets).toEqual([
      '15-BAR ITALIAN PUMP: consistent pressure for rich crema.',
      'BUILT-IN GRINDER with 30 settings & dosing control.',
      'STEAM WAND for microfoam and latte art.',
    ]);
    expect(p.technicalSpecifications).toContainEqual({ name: 'Brand', value: 'Acme' });
    expect(p.technicalSpecifications).toContainEqual({ name: 'UPC', value: '885734123450' });
  });
  it('builds breadcrumb categories with node ids and paths', () => {
    expect(p.categories).toEqual([
      { name: 'Home & Kitchen', id: '1055398', url: 'https://www.amazon.com/home-garden-kitchen-furniture-bedding/b/ref=dp_bc_aui_C_1?ie=UTF8&node=1055398', breadcrumbPath: 'Home & Kitchen' },
      { name: 'Kitchen & Dining', id: '284507', url: 'https://www.amazon.com/kitchen-dining/b/ref=dp_bc_aui_C_2?ie=UTF8&node=284507', breadcrumbPath: 'Home & Kitchen > Kitchen & Dining' },
      { name: 'Espresso Machines', id: '289745', url: 'https://www.amazon.com/Espresso-Machines/b/ref=dp_bc_aui_C_3?ie=UTF8&node=289745', breadcrumbPath: 'Home & Kitchen > Kitchen & Dining > Espresso Machines' },
    ]);
  });
});

describe('parseProduct on a book page', () => {
  const { product: p, detailRows } = parseProductPage(fixture('com/product/dp-0316769487-book-paperback.html'), { marketplace: US, asin: '0316769487' });
  it('has no brand (the byline names authors) and reads the selected format price', () => {
    expect(p.brand).toBeUndefined();
    expect(p.price).toEqual({ symbol: '$', value: 8.99, currency: 'USD', display: '$8.99' });
    expect(p.mainImageUrl).toBe('https://m.media-amazon.com/images/I/91CatcherL._SY522_.jpg');
  });
  it('reads the detail bullets with their labels cleaned', () => {
    expect(detailRows).toContainEqual({ name: 'ISBN-10', value: '0316769487' });
    expect(detailRows).toContainEqual({ name: 'ISBN-13', value: '978-0316769488' });
    expect(detailRows).toContainEqual({ name: 'Publisher', value: 'Little, Brown and Company; Reissue edition (January 30, 2001)' });
  });
});

describe('parseProduct with German number formats', () => {
  const p = parseProduct(fixture('de/product/dp-B0FXTDE001-kaffeevollautomat.html'), { marketplace: DE, asin: 'B0FXTDE001' });
  it('reads 1.226,00 € as 1226, 4,5 von 5 Sternen as 4.5 and 1.234 ratings as 1234', () => {
    expect(p.price).toEqual({ symbol: '€', value: 1226, currency: 'EUR', display: '1.226,00\u00a0€' });
    expect(p.rating).toBe(4.5);
    expect(p.ratingsTotal).toBe(1234n);
  });
  it('reads the German store byline and "Nur noch 3 auf Lager" as in stock', () => {
    expect(p.brand).toBe('Acme');
    expect(p.isInStock).toBe(true);
  });
});

describe('parseProduct with Japanese words and yen', () => {
  const { product: p, detailRows } = parseProductPage(fixture('co.jp/product/dp-B0FXTJP001-denki-kettle.html'), { marketplace: marketplaceByCode('JP'), asin: 'B0FXTJP001' });
  it('reads ￥1,280 as 1280 JPY, 5つ星のうち4.1 as 4.1 and 2,345個の評価 as 2345', () => {
    expect(p.price).toEqual({ symbol: '￥', value: 1280, currency: 'JPY', display: '￥1,280' });
    expect(p.rating).toBe(4.1);
    expect(p.ratingsTotal).toBe(2345n);
  });
  it('reads the "ブランド:" byline, 在庫あり and the JAN row', () => {
    expect(p.brand).toBe('アクメ');
    expect(p.isInStock).toBe(true);
    expect(detailRows).toContainEqual({ name: 'JAN', value: '4901234567894' });
  });
});

describe('parseProduct never guesses a price', () => {
  const page = (priceBlock: string) =>
    `<html><body><span id="productTitle">Shirt</span><a id="bylineInfo">Visiter la boutique Acme</a>${priceBlock}</body></html>`;
  it('a price range is omitted', () => {
    const p = parseProduct(
      page('<div id="corePrice_feature_div"><span class="a-price-range"><span class="a-price"><span class="a-offscreen">$19.99</span></span> - <span class="a-price"><span class="a-offscreen">$29.99</span></span></span></div>'),
      { marketplace: US, asin: 'B000000001' },
    );
    expect(p.price).toBeUndefined();
    expect(p.brand).toBe('Acme');
  });
  it('an old priceblock range is omitted too', () => {
    expect(parseProduct(page('<span id="priceblock_ourprice">$10.99 - $15.99</span>'), { marketplace: US, asin: 'B000000001' }).price).toBeUndefined();
  });
});

describe('parseProduct refuses pages it cannot read', () => {
  it('a page without a title is UPSTREAM_ERROR, never a half-empty record', () => {
    const run = () => parseProduct('<html><body><div id="dp">nothing here</div></body></html>', { marketplace: US, asin: 'B000000000' });
    expect(run).toThrow(CoreError);
    try {
      run();
    } catch (error) {
      expect((error as CoreError).reason).toBe(ErrorReason.UPSTREAM_ERROR);
    }
  });
});

describe('detail bullets', () => {
  it('the value leaves out the first visible label; the first label (even in noscript) names the row', () => {
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

describe('parseProduct on the apparel layout (no #feature-bullets; facts grid and list under #productFactsDesktopExpander)', () => {
  const p = parseProduct(fixture('com/product/dp-B0FXTAPP01-apparel-facts.html'), { marketplace: US, asin: 'B0FXTAPP01' });

  it('reads the "About this item" list of the product facts as the feature bullets', () => {
    expect(p.featureBullets).toEqual([
      'SOFT RIB KNIT: a stretchy ribbed knit that keeps its shape after washing.',
      'CROPPED FIT: long sleeves, a square neckline and a cropped hem.',
      'EASY TO STYLE: wear it with high-waisted jeans or layer it under a blazer.',
    ]);
  });
  it('reads the facts grid (fabric, care, closure) as technical specifications, beside the detail bullets', () => {
    expect(p.technicalSpecifications).toEqual(expect.arrayContaining([
      { name: 'Fabric type', value: '95% Cotton 5% Elastane' },
      { name: 'Care instructions', value: 'Hand Wash Only' },
      { name: 'Closure type', value: 'Pull On' },
      { name: 'Department', value: 'womens' },
    ]));
  });
});
