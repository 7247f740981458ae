import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import type { DomainCode } from '../marketplaces/types.js';
import { parseSearchPage } from './search.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/search/${name}`, import.meta.url)), 'utf8');
const parse = (name: string, code: DomainCode) => parseSearchPage(fixture(name), { marketplace: marketplaceByCode(code) });

describe('search pages in five languages (project fixtures, 2024+ card markup)', () => {
  it('DE: sponsored label, euro prices, German ratings, coupon, a card without price or rating', () => {
    const data = parse('s-de-fixture.html', 'DE');
    const [first, second, third] = data.productResults!.results!;
    expect(first).toMatchObject({
      asin: 'B0DEFIX001',
      title: 'Trinkflasche Glas 1L mit Schutzhülle',
      url: 'https://www.amazon.de/dp/B0DEFIX001',
      price: { value: 24.9, currency: 'EUR', display: `24,90${NBSP}€`, symbol: '€' },
      rating: 4.5,
      ratingsTotal: 1234n,
      sponsored: true,
      isPrime: true,
    });
    expect(second).toMatchObject({ asin: 'B0DEFIX002', price: { value: 1226 }, rating: 4.3, ratingsTotal: 87n, sponsored: false, coupon: { label: 'Spare 5 % mit Coupon' } });
    expect(third).toMatchObject({ asin: 'B0DEFIX003', sponsored: false });
    expect(third!.price).toBeUndefined();
    expect(third!.rating).toBeUndefined();
    expect(data.productResults!.pageInfo).toEqual({ currentPage: 1n, totalPages: 20n, totalResults: 1000n, hasNextPage: true, hasPrevPage: false });
    expect(data.availableRefinements).toEqual([{ name: 'R', options: [{ name: '4+', value: 'p_72:1248879011' }] }]);
  });

  it('FR: narrow no-break grouping', () => {
    const [first] = parse('s-fr-fixture.html', 'FR').productResults!.results!;
    expect(first).toMatchObject({ price: { value: 1226, display: `1${NNBSP}226,00${NBSP}€` }, rating: 4.7, ratingsTotal: 2345n, sponsored: true });
  });

  it('JP: yen without minor units, 5つ星のうち ratings, スポンサー', () => {
    const data = parse('s-jp-fixture.html', 'JP');
    const [first, second] = data.productResults!.results!;
    expect(first).toMatchObject({ price: { value: 1280, currency: 'JPY', display: '￥1,280' }, rating: 4.4, ratingsTotal: 2345n, sponsored: true });
    expect(second).toMatchObject({ price: { value: 15592 }, rating: 3.9, ratingsTotal: 183n, sponsored: false });
    expect(data.productResults!.pageInfo!.totalResults).toBe(6000n);
  });

  it('IN: lakh grouping', () => {
    const [first, second] = parse('s-in-fixture.html', 'IN').productResults!.results!;
    expect(first).toMatchObject({ price: { value: 123456, currency: 'INR', display: '₹1,23,456.00' }, ratingsTotal: 123456n, sponsored: false });
    expect(second).toMatchObject({ price: { value: 499 }, sponsored: true });
  });

  it('PL: no-break grouping and złoty after the number', () => {
    const [first] = parse('s-pl-fixture.html', 'PL').productResults!.results!;
    expect(first).toMatchObject({ price: { value: 1226, currency: 'PLN', display: `1${NBSP}226,00${NBSP}zł` }, rating: 4.6, ratingsTotal: 1234n, sponsored: true });
  });

  it('answers an empty list (not an error) for a page without results', () => {
    const data = parseSearchPage('<html><body><div class="s-no-results">No results</div></body></html>', { marketplace: marketplaceByCode('US') });
    expect(data.productResults!.results).toEqual([]);
  });
});
