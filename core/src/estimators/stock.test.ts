import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import type { StockSignals } from '../parsers/stock.js';
import { estimateStock } from './stock.js';

const signals = (over: Partial<StockSignals>): StockSignals => ({ availabilityMessage: undefined, quantityMax: undefined, offerId: undefined, buyable: false, ...over });

describe('stock model', () => {
  it.each([
    ['US', 'Only 3 left in stock - order soon.', 3],
    ['UK', 'Only 1 left in stock.', 1],
    ['DE', 'Nur noch 2 auf Lager', 2],
    ['DE', 'Nur noch 5 Stück auf Lager (mehr ist unterwegs).', 5],
    ['FR', 'Il ne reste plus que 4 exemplaire(s) en stock.', 4],
    ['IT', 'Solo 2 rimasti - ordina subito.', 2],
    ['ES', 'Solo queda(n) 3 en stock.', 3],
    ['BR', 'Apenas 6 em estoque (mais a caminho).', 6],
    ['JP', '残り2点 ご注文はお早めに', 2],
    ['PL', 'Zostały tylko 4 sztuki.', 4],
  ] as const)('%s "%s" → %d left', (code, message, count) => {
    const estimate = estimateStock(signals({ availabilityMessage: message, quantityMax: 30, buyable: true }), marketplaceByCode(code));
    expect(estimate).toMatchObject({ inStock: true, stockLevel: count, basis: 'only-left-text', availabilityMessage: message });
  });

  it.each([
    ['US', 'Currently unavailable. We don\u2019t know when or if this item will be back in stock.'],
    ['DE', 'Derzeit nicht verfügbar.'],
    ['FR', 'Actuellement indisponible.'],
    ['ES', 'Actualmente no disponible.'],
    ['JP', '現在在庫切れです。'],
    ['PL', 'Obecnie niedostępny.'],
  ] as const)('%s "%s" → out of stock', (code, message) => {
    expect(estimateStock(signals({ availabilityMessage: message }), marketplaceByCode(code))).toMatchObject({ inStock: false, stockLevel: 0 });
  });

  it('uses a quantity selector that stops below the cap, and gives no level when it reaches the cap', () => {
    const us = marketplaceByCode('US');
    expect(estimateStock(signals({ availabilityMessage: 'In Stock', quantityMax: 4, buyable: true, offerId: 'X' }), us)).toEqual({
      inStock: true,
      stockLevel: 4,
      availabilityMessage: 'In Stock',
      offerId: 'X',
      basis: 'quantity-selector',
    });
    expect(estimateStock(signals({ availabilityMessage: 'In Stock', quantityMax: 30, buyable: true }), us)).toMatchObject({ inStock: true, stockLevel: undefined, basis: 'none' });
  });

  it('treats a buy button without an availability line as in stock', () => {
    expect(estimateStock(signals({ buyable: true }), marketplaceByCode('US'))).toMatchObject({ inStock: true });
    expect(estimateStock(signals({}), marketplaceByCode('US'))).toMatchObject({ inStock: false });
  });
});
