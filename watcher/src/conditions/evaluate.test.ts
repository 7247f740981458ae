import { describe, expect, it } from 'vitest';
import type { Condition, Snapshot } from '../model.js';
import { eventsBetween } from './evaluate.js';

let minute = 0;
function snap(fields: Partial<Snapshot> = {}): Snapshot {
  const at = new Date(Date.UTC(2026, 10, 1, 0, minute++));
  return { domain: 'US', asin: 'B000000001', at, retrievedAt: at, ...fields };
}
const usd = (value: number) => ({ value, currency: 'USD' });
const types = (events: ReturnType<typeof eventsBetween>) => events.map((e) => e.type);

describe('price at or below', () => {
  const below8: Condition[] = [{ type: 'PRICE_AT_OR_BELOW', value: 8 }];

  it('fires when the price crosses to the threshold, with the prices before and after', () => {
    const events = eventsBetween(below8, snap({ price: usd(10) }), snap({ price: usd(8) }));
    expect(events).toEqual([{ type: 'PRICE_AT_OR_BELOW', condition: below8[0], before: { price: usd(10) }, after: { price: usd(8) } }]);
  });

  it('stays quiet while the price stays below (one alert per crossing, not one per refresh)', () => {
    expect(eventsBetween(below8, snap({ price: usd(7) }), snap({ price: usd(6) }))).toEqual([]);
  });

  it('fires on the first snapshot when the product is already below, and after an unknown price', () => {
    expect(types(eventsBetween(below8, null, snap({ price: usd(5) })))).toEqual(['PRICE_AT_OR_BELOW']);
    expect(types(eventsBetween(below8, snap({}), snap({ price: usd(5) })))).toEqual(['PRICE_AT_OR_BELOW']);
  });

  it('never fires on an unknown price and compares in cents, not floats', () => {
    expect(eventsBetween(below8, snap({ price: usd(10) }), snap({}))).toEqual([]);
    expect(types(eventsBetween([{ type: 'PRICE_AT_OR_BELOW', value: 0.3 }], snap({ price: usd(1) }), snap({ price: usd(0.1 + 0.2) })))).toEqual([
      'PRICE_AT_OR_BELOW',
    ]);
    expect(eventsBetween(below8, snap({ price: usd(10) }), snap({ price: usd(8.01) }))).toEqual([]);
  });

  it('treats a change of currency as a new start, not a comparison', () => {
    expect(types(eventsBetween(below8, snap({ price: { value: 5, currency: 'EUR' } }), snap({ price: usd(7) })))).toEqual(['PRICE_AT_OR_BELOW']);
  });
});

describe('price drop percent', () => {
  const drop10: Condition[] = [{ type: 'PRICE_DROP_PERCENT', value: 10 }];

  it('fires on a drop of at least the percentage since the previous snapshot', () => {
    expect(types(eventsBetween(drop10, snap({ price: usd(10) }), snap({ price: usd(9) })))).toEqual(['PRICE_DROP_PERCENT']);
    expect(types(eventsBetween(drop10, snap({ price: usd(19.99) }), snap({ price: usd(17.99) })))).toEqual(['PRICE_DROP_PERCENT']);
  });

  it('does not fire on a smaller drop, a rise, a first snapshot, an unknown price or another currency', () => {
    expect(eventsBetween(drop10, snap({ price: usd(10) }), snap({ price: usd(9.01) }))).toEqual([]);
    expect(eventsBetween(drop10, snap({ price: usd(9) }), snap({ price: usd(10) }))).toEqual([]);
    expect(eventsBetween(drop10, null, snap({ price: usd(1) }))).toEqual([]);
    expect(eventsBetween(drop10, snap({}), snap({ price: usd(1) }))).toEqual([]);
    expect(eventsBetween(drop10, snap({ price: { value: 100, currency: 'EUR' } }), snap({ price: usd(1) }))).toEqual([]);
  });
});

describe('stock', () => {
  const stock: Condition[] = [{ type: 'BACK_IN_STOCK' }, { type: 'OUT_OF_STOCK' }];

  it('fires on each flip of availability: price 10 → out of stock → back at 8', () => {
    const a = snap({ price: usd(10), isInStock: true });
    const b = snap({ isInStock: false });
    const c = snap({ price: usd(8), isInStock: true });
    expect(eventsBetween(stock, a, b)).toEqual([
      { type: 'OUT_OF_STOCK', condition: stock[1], before: { isInStock: true }, after: { isInStock: false } },
    ]);
    expect(eventsBetween(stock, b, c)).toEqual([
      { type: 'BACK_IN_STOCK', condition: stock[0], before: { isInStock: false }, after: { isInStock: true, price: usd(8) } },
    ]);
  });

  it('does not fire on a first snapshot or when either side does not show availability', () => {
    expect(eventsBetween(stock, null, snap({ isInStock: false }))).toEqual([]);
    expect(eventsBetween(stock, snap({}), snap({ isInStock: true }))).toEqual([]);
    expect(eventsBetween(stock, snap({ isInStock: true }), snap({}))).toEqual([]);
  });
});

describe('buy-box seller', () => {
  const seller: Condition[] = [{ type: 'BUYBOX_SELLER_CHANGED' }];

  it('fires when another seller wins the buy box', () => {
    expect(types(eventsBetween(seller, snap({ buyboxSellerId: 'A1' }), snap({ buyboxSellerId: 'B2' })))).toEqual(['BUYBOX_SELLER_CHANGED']);
  });

  it('does not fire when the buy box appears or disappears', () => {
    expect(eventsBetween(seller, snap({}), snap({ buyboxSellerId: 'B2' }))).toEqual([]);
    expect(eventsBetween(seller, snap({ buyboxSellerId: 'A1' }), snap({}))).toEqual([]);
  });
});

describe('any change', () => {
  const any: Condition[] = [{ type: 'ANY_CHANGE' }];

  it('fires with exactly the fields that changed', () => {
    const events = eventsBetween(any, snap({ price: usd(10), rating: 4.5, offerCount: 3 }), snap({ price: usd(10), rating: 4.5, offerCount: 4 }));
    expect(events).toEqual([{ type: 'ANY_CHANGE', condition: any[0], before: { offerCount: 3 }, after: { offerCount: 4 } }]);
  });

  it('ignores float noise in prices and ratings that round to the same tenth, and the first snapshot', () => {
    expect(eventsBetween(any, snap({ price: usd(0.3), rating: 4.44 }), snap({ price: usd(0.1 + 0.2), rating: 4.4 }))).toEqual([]);
    expect(eventsBetween(any, null, snap({ price: usd(1) }))).toEqual([]);
  });

  it('sees a field that appears or disappears as a change', () => {
    expect(types(eventsBetween(any, snap({ bestSellersRank: 10 }), snap({})))).toEqual(['ANY_CHANGE']);
  });
});

it('fires every condition met, two thresholds included, each with its own condition', () => {
  const conditions: Condition[] = [
    { type: 'PRICE_AT_OR_BELOW', value: 9 },
    { type: 'PRICE_AT_OR_BELOW', value: 8 },
    { type: 'PRICE_DROP_PERCENT', value: 20 },
    { type: 'OUT_OF_STOCK' },
  ];
  const events = eventsBetween(conditions, snap({ price: usd(10), isInStock: true }), snap({ price: usd(8), isInStock: true }));
  expect(events.map((e) => [e.type, e.condition.value])).toEqual([
    ['PRICE_AT_OR_BELOW', 9],
    ['PRICE_AT_OR_BELOW', 8],
    ['PRICE_DROP_PERCENT', 20],
  ]);
});

describe('fields a snapshot does not vouch for', () => {
  const all: Condition[] = [
    { type: 'PRICE_AT_OR_BELOW', value: 9 }, { type: 'PRICE_DROP_PERCENT', value: 10 }, { type: 'OUT_OF_STOCK' }, { type: 'BACK_IN_STOCK' },
    { type: 'BUYBOX_SELLER_CHANGED' }, { type: 'ANY_CHANGE' },
  ];

  it('fires no ANY_CHANGE when the price goes unknown (before issue 23 it did: a vanished price was a change)', () => {
    expect(eventsBetween(all, snap({ price: usd(10), isInStock: true }), snap({ isInStock: true, unknownFields: ['price'] }))).toEqual([]);
  });

  it('fires nothing from a suspect value, however far it moved, and leaves it out of an ANY_CHANGE of other fields', () => {
    const before = snap({ price: usd(10), isInStock: true, rating: 4.1 });
    expect(eventsBetween(all, before, snap({ price: usd(1), isInStock: false, rating: 4.1, suspectFields: ['price', 'isInStock'] }))).toEqual([]);
    const events = eventsBetween([{ type: 'ANY_CHANGE' }], before, snap({ price: usd(1), isInStock: true, rating: 4.6, suspectFields: ['price'] }));
    expect(events).toEqual([{ type: 'ANY_CHANGE', condition: { type: 'ANY_CHANGE' }, before: { rating: 4.1 }, after: { rating: 4.6 } }]);
  });

  it('compares nothing with a field the earlier snapshot could not vouch for either', () => {
    expect(eventsBetween(all, snap({ isInStock: true, unknownFields: ['price'] }), snap({ price: usd(12), isInStock: true }))).toEqual([]);
  });
});
