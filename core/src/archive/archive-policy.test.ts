import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runParser } from '../workers/parser-registry.js';
import { archiveReason, missingFields } from './archive-policy.js';

const fixture = (path: string) => readFileSync(new URL(`../../../test/fixtures/pages/${path}`, import.meta.url), 'utf8');
const PRODUCT = fixture('pages/com/product/dp-B0FXTUS001-modern-espresso.html');

describe('the archive policy on what the real parsers return', () => {
  it('a complete product page and a search page miss nothing', () => {
    expect(missingFields('product-page', runParser('product-page', PRODUCT, { domain: 'US', asin: 'B0FXTUS001' }))).toEqual([]);
    expect(missingFields('search-page', runParser('search-page', fixture('search/s-fr-fixture.html'), { domain: 'FR' }))).toEqual([]);
  });

  it('an in-stock product page whose price block was renamed misses its price', () => {
    const drifted = PRODUCT.replaceAll('a-price', 'x-amount').replaceAll('corePriceDisplay', 'priceWidgetV2').replaceAll('priceToPay', 'amountDue').replaceAll('a-offscreen', 'sr-only')
      .replaceAll('twister-plus-buying-options-price-data', 'buying-options-v2');
    expect(missingFields('product-page', runParser('product-page', drifted, { domain: 'US', asin: 'B0FXTUS001' }))).toContain('price');
  });

  it('a search page whose result grid the parser no longer finds misses its results, as field health declares', () => {
    const regridded = fixture('search/s-fr-fixture.html').replaceAll('data-component-type="s-search-result"', 'data-component-type="srp-card"').replaceAll('s-result-item', 'srp-card');
    expect(missingFields('search-page', runParser('search-page', regridded, { domain: 'FR' }))).toContain('results');
  });

  it('a parser field health does not declare is not checked', () => {
    expect(missingFields('autocomplete', null)).toEqual([]);
  });

  it('a refused page outranks every other reason, and the sample only keeps what no rule keeps', () => {
    expect(archiveReason({ hint: 'watch-refresh', refused: 'blocked', missing: ['price'], draw: 0, sampleRate: 1 })).toBe('blocked');
    expect(archiveReason({ hint: 'watch-refresh', missing: ['price'], draw: 0, sampleRate: 1 })).toBe('incomplete');
    expect(archiveReason({ hint: undefined, missing: [], draw: 0.5, sampleRate: 0.4 })).toBeUndefined();
    expect(archiveReason({ hint: undefined, missing: [], draw: 0.3, sampleRate: 0.4 })).toBe('sample');
  });
});
