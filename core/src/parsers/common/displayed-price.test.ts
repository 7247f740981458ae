import { describe, expect, it } from 'vitest';
import { MARKETPLACES, formatPriceDisplay } from '../../marketplaces/index.js';
import { readDisplayedPrice } from './displayed-price.js';

describe('readDisplayedPrice gives every marketplace a symbol', () => {
  it('covers all 13 marketplaces', () => {
    expect(MARKETPLACES).toHaveLength(13);
  });

  it.each(MARKETPLACES.map((m) => [m.code, m] as const))('%s: its own format and a bare amount both carry its sign', (_code, m) => {
    expect(m.currencySymbol).not.toBe('');
    const shown = formatPriceDisplay(1234.5, m);
    expect(readDisplayedPrice(shown, m)).toMatchObject({ symbol: m.currencySymbol, currency: m.currency });
    // Pages that print the amount alone (IN's "237,097.00") still give the marketplace's sign.
    const bare = shown.replace(m.currencySymbol, '').trim();
    expect(readDisplayedPrice(bare, m)).toMatchObject({ symbol: m.currencySymbol, currency: m.currency, display: bare });
  });
});
