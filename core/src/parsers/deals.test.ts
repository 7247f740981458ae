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

describe('deals page, the 2025 grid (project fixtures modelled on the first real deals page, BR)', () => {
  const BR = marketplaceByCode('BR');

  it('reads the promotions the mountWidget script carries, every one, in grid order (not only the rendered cards)', () => {
    const grid = parseDealsPage(fixture('deals-br-grid-2025.html'), { marketplace: BR, page: 1 });
    expect(grid.source).toBe('state');
    expect(grid.results.map((r) => r.asin)).toEqual(['B0FXDLBR01', 'B0FXDLBR02', 'B0FXDLBR03']);
    expect(grid.results[0]).toMatchObject({
      title: 'Fone de Ouvido Acme Sem Fio — 30h de Bateria',
      dealId: 'a1b2c3d4',
      dealType: 'BEST_DEAL',
      dealIsLightningDeal: false,
      dealBadge: 'Oferta',
      dealPercentOff: 20,
      dealPrice: { value: 199.9, currency: 'BRL' },
      dealListPrice: { value: 249.9, currency: 'BRL' },
      mainImageUrl: 'https://m.media-amazon.com/images/I/61FxBrDl1L.jpg',
      dealUrl: 'https://www.amazon.com.br/Fone-Acme/dp/B0FXDLBR01',
      dealStartTime: '2026-11-20T03:00:00.000Z',
      dealEndTime: '2026-11-27T02:59:59.000Z',
    });
    expect(grid.pageInfo).toMatchObject({ totalResults: 3n, hasNextPage: false });
  });

  it('takes the percent off from the badge label when the promotion states no savings, and the badge name from its message', () => {
    const [, countdown, prime] = parseDealsPage(fixture('deals-br-grid-2025.html'), { marketplace: BR, page: 1 }).results;
    expect(countdown).toMatchObject({ dealPercentOff: 5, dealBadge: 'Oferta', dealPrice: { value: 1299 } });
    expect(countdown!.dealListPrice).toBeUndefined();
    expect(prime).toMatchObject({ dealPercentOff: 30, dealBadge: 'Com Prime' });
  });

  it('reads a rendered card\'s title from p#title-ASIN, not from the badge beside it, and its percent from the badge label', () => {
    // The same page without its state script: only the rendered cards are left to read.
    const withoutState = fixture('deals-br-grid-2025.html').replace(/<script>[\s\S]*?<\/script>/, '');
    const cards = parseDealsPage(withoutState, { marketplace: BR, page: 1 });
    expect(cards.source).toBe('cards');
    expect(cards.results.map((r) => [r.asin, r.dealId, r.title, r.dealPercentOff, r.dealBadge])).toEqual([
      ['B0FXDLBR01', 'a1b2c3d4', 'Fone de Ouvido Acme Sem Fio — 30h de Bateria', 20, 'Oferta'],
      ['B0FXDLBR02', 'e5f6a7b8', 'Cafeteira Expresso Acme 15 Bar – Inox', 5, 'Termina em 05:03:54'],
    ]);
  });
});
