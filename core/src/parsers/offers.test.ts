import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { parseOffersPage } from './offers.js';
import { parseSellerProfile } from './seller.js';

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/${path}`, import.meta.url)), 'utf8');

describe('current all-offers display (project fixture)', () => {
  const page = parseOffersPage(fixture('offers/aod-B0FXOFFR01-current.html'), { marketplace: marketplaceByCode('US'), asin: 'B0FXOFFR01' });

  it('marks the pinned offer as the buy-box winner and reads Amazon as seller', () => {
    expect(page.offers![0]).toMatchObject({
      id: 'FixturePinnedOfferId',
      buyboxWinner: true,
      conditionIsNew: true,
      isPrime: true,
      price: { value: 39.99, currency: 'USD', display: '$39.99' },
      delivery: { fulfilledByRetail: true, price: 0, comments: 'FREE delivery Tuesday, March 10' },
      seller: { name: 'Amazon.com' },
    });
  });

  it('reads used offers, shipping charges and seller ratings', () => {
    expect(page.offers![1]).toMatchObject({
      id: 'FixtureUsedOfferId',
      buyboxWinner: false,
      conditionIsNew: false,
      isPrime: false,
      price: { value: 31.5 },
      delivery: { fulfilledByRetail: false, price: 5.99 },
      seller: { id: 'A1FXSELLER0001', name: 'Fixture Kitchen Supply', link: 'https://www.amazon.com/sp?seller=A1FXSELLER0001', rating: 4.5, ratingsPercentagePositive: 94, ratingsTotal: 2982n },
    });
    expect(page.offers![2]).toMatchObject({ conditionIsNew: true, isPrime: true, delivery: { fulfilledByRetail: true, price: 0 }, seller: { id: 'A2FXSELLER0002' } });
    expect(page.pageInfo).toMatchObject({ currentPage: 1n, totalResults: 3n, hasNextPage: false });
  });
});

describe('seller profile page (project fixture)', () => {
  it('reads name, logo, rating, ratings count, about and phone', () => {
    const seller = parseSellerProfile(fixture('seller/sp-A1FXSELLER0001-profile.html'), { marketplace: marketplaceByCode('US'), sellerId: 'A1FXSELLER0001' });
    expect(seller).toEqual({
      sellerId: 'A1FXSELLER0001',
      name: 'Fixture Kitchen Supply',
      logoUrl: 'https://m.media-amazon.com/images/I/41FixtureLogo.jpg',
      rating: 4.6,
      ratingsTotal: 2982n,
      about: 'Fixture Kitchen Supply sells kettles and coffee gear from a warehouse in Ohio since 2014.',
      phone: '+1 555 0100 200',
    });
  });
});
