import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseDealsPage } from './deals.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/deals/${name}`, import.meta.url)), 'utf8');
const NBSP = '\u00a0';

describe('deals page (project fixtures, unverified against real pages)', () => {
  const us = parseDealsPage(fixture('deals-us.html'), { marketplace: marketplaceByCode('US'), page: 1 });

  it('reads every deal of the embedded state, in grid order', () => {
    expect(us.source).toBe('state');
    expect(us.results.map((r) => r.asin)).toEqual(['B0DLUS0001', 'B0DLUS0002', 'B0DLUS0003']);
  });

  it('fills the deal fields from the state', () => {
    expect(us.results[0]).toMatchObject({
      asin: 'B0DLUS0001',
      url: 'https://www.amazon.com/dp/B0DLUS0001',
      title: 'Acme Noise Cancelling Headphones, 40h Battery',
      rating: 4.4,
      ratingsTotal: 12873n,
      isPrime: true,
      sponsored: false,
      dealId: '9f1c2e3a',
      dealType: 'LIGHTNING_DEAL',
      dealIsLightningDeal: true,
      dealBadge: 'Lightning Deal',
      dealPercentOff: 40,
      dealPrice: { value: 59.99, currency: 'USD', display: '$59.99' },
      dealListPrice: { value: 99.99, currency: 'USD', display: '$99.99' },
      price: { value: 59.99 },
      dealStartTime: '2026-11-22T08:00:00.000Z',
      dealEndTime: '2026-11-22T20:00:00.000Z',
    });
    expect(us.results[0]!.dealUrl).toMatch(/^https:\/\/www\.amazon\.com\/dp\/B0DLUS0001/);
    expect(us.results[1]).toMatchObject({ dealIsLightningDeal: false, isPrime: false, dealPrice: { value: 1249, display: '$1,249.00' } });
  });

  it('omits a price range instead of guessing one price', () => {
    const ranged = us.results[2]!;
    expect(ranged.dealPrice).toBeUndefined();
    expect(ranged.price).toBeUndefined();
    expect(ranged.dealPercentOff).toBe(30);
  });

  it('pages by the state total (60 per page)', () => {
    expect(us.pageInfo).toEqual({ currentPage: 1n, totalPages: 3n, totalResults: 143n, hasNextPage: true, hasPrevPage: false });
  });

  it('shows DE prices as the page writes them, and converts offsets to UTC', () => {
    const de = parseDealsPage(fixture('deals-de.html'), { marketplace: marketplaceByCode('DE'), page: 1 });
    expect(de.results[0]).toMatchObject({
      dealPrice: { symbol: '€', value: 1226, currency: 'EUR', display: `1.226,00${NBSP}€` },
      dealListPrice: { value: 1599, display: `1.599,00${NBSP}€` },
      dealBadge: 'Zeitlich begrenztes Angebot',
      dealStartTime: '2026-11-19T23:00:00.000Z',
    });
    expect(de.results[1]).toMatchObject({ dealIsLightningDeal: true, dealBadge: 'Blitzangebot', dealPrice: { value: 13.97, display: `13,97${NBSP}€` } });
    expect(de.pageInfo).toMatchObject({ totalPages: 1n, totalResults: 2n, hasNextPage: false });
  });

  it('falls back to the rendered cards when the page carries no state', () => {
    const cards = parseDealsPage(fixture('deals-us-cards-only.html'), { marketplace: marketplaceByCode('US'), page: 2 });
    expect(cards.source).toBe('cards');
    expect(cards.results).toHaveLength(2);
    expect(cards.results[0]).toMatchObject({
      asin: 'B0DLUS0001',
      dealId: '9f1c2e3a',
      dealType: 'LIGHTNING_DEAL',
      dealIsLightningDeal: true,
      dealBadge: 'Lightning Deal',
      dealPercentOff: 40,
      isPrime: true,
      dealPrice: { value: 59.99, display: '$59.99' },
      dealListPrice: { value: 99.99 },
      dealUrl: 'https://www.amazon.com/dp/B0DLUS0001',
    });
    expect(cards.pageInfo).toMatchObject({ currentPage: 2n, hasPrevPage: true, hasNextPage: false });
  });

  it('finds nothing on a page that is not the deals grid', () => {
    expect(parseDealsPage('<html><body><p>Hello</p></body></html>', { marketplace: marketplaceByCode('US'), page: 1 }).source).toBe('none');
  });
});
