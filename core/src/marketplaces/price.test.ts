import { describe, expect, it } from 'vitest';
import { type DomainCode, formatPriceDisplay, marketplaceByCode, parsePrice } from './index.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';

/** [domain, value, display exactly as the marketplace shows it]. */
const DISPLAYS: ReadonlyArray<[DomainCode, number, string]> = [
  ['US', 1226, '$1,226.00'],
  ['US', 0.99, '$0.99'],
  ['UK', 1226, '£1,226.00'],
  ['CA', 1226, '$1,226.00'],
  ['DE', 1226, `1.226,00${NBSP}€`],
  ['DE', 9.5, `9,50${NBSP}€`],
  ['FR', 1226, `1${NNBSP}226,00${NBSP}€`],
  ['IT', 1226, `1.226,00${NBSP}€`],
  ['ES', 1226, `1.226,00${NBSP}€`],
  ['ES', 1000, `1.000,00${NBSP}€`],
  ['AU', 1226, '$1,226.00'],
  ['IN', 123456, '₹1,23,456.00'],
  ['IN', 12345678.5, '₹1,23,45,678.50'],
  ['MX', 1226, '$1,226.00'],
  ['BR', 1226, `R$${NBSP}1.226,00`],
  ['JP', 1280, '\uffe51,280'],
  ['JP', 98, '\uffe598'],
  ['PL', 1226, `1${NBSP}226,00${NBSP}zł`],
  ['PL', 5000, `5${NBSP}000,00${NBSP}zł`],
];

const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16));

describe('formatPriceDisplay', () => {
  it.each(DISPLAYS)('%s %d → %s', (code, value, display) => {
    expect(codePoints(formatPriceDisplay(value, marketplaceByCode(code)))).toEqual(codePoints(display));
  });
});

/** Real-world price texts per domain: [domain, text as scraped, value]. */
const PARSES: ReadonlyArray<[DomainCode, string, number]> = [
  ['US', '$1,226.00', 1226],
  ['US', ' $24.99 ', 24.99],
  ['UK', '£1,099.00', 1099],
  ['CA', '$29.97', 29.97],
  ['CA', 'CDN$ 1,226.00', 1226],
  ['DE', '1.226,00 €', 1226],
  ['DE', `1.226,00${NBSP}€`, 1226],
  ['DE', '24,99€', 24.99],
  ['FR', `1${NNBSP}226,00${NBSP}€`, 1226],
  ['FR', '1 226,00 €', 1226],
  ['FR', '19,90 €', 19.9],
  ['IT', '1.226,00 €', 1226],
  ['ES', '1.226,00 €', 1226],
  ['ES', '12,95 €', 12.95],
  ['AU', '$1,226.00', 1226],
  ['IN', '₹1,23,456.00', 123456],
  ['IN', '₹ 499', 499],
  ['MX', '$1,226.00', 1226],
  ['BR', 'R$ 1.299,90', 1299.9],
  ['BR', `R$${NBSP}49,90`, 49.9],
  ['JP', '\uffe51,280', 1280],
  ['JP', '¥1,280', 1280],
  ['JP', '1,280円', 1280],
  ['PL', '1 226,00 zł', 1226],
  ['PL', `1${NBSP}226,00${NBSP}zł`, 1226],
  ['PL', `1${NNBSP}226,00 zł`, 1226],
  ['PL', '89,99 zł', 89.99],
];

describe('parsePrice', () => {
  it.each(PARSES)('%s %j → %d', (code, text, value) => {
    const m = marketplaceByCode(code);
    const parsed = parsePrice(text, m);
    expect(parsed?.value).toBe(value);
    expect(parsed?.currency).toBe(m.currency);
    // Shown text (invisible marks and ordinary white-space runs aside) is the display.
    expect(parsed?.display).toBe(text.trim());
    // The canonical form is the marketplace's own format of the same value.
    expect(parsePrice(text, m, { display: 'canonical' })).toEqual({ symbol: m.currencySymbol, value, currency: m.currency, display: formatPriceDisplay(value, m) });
  });

  it.each([
    ['DE', 'EUR 10,99', 'EUR', 10.99],
    ['FR', 'EUR 12,41', 'EUR', 12.41],
    ['CA', 'CDN$ 16.65', 'CDN$', 16.65],
    ['BR', 'R$259,00', 'R$', 259],
    ['ES', '39,99€', '€', 39.99],
    ['IN', '237,097.00', '₹', 237097],
    ['JP', '¥1,280', '¥', 1280],
  ] as Array<[DomainCode, string, string, number]>)('%s keeps %j as shown (corpus pages)', (code, text, symbol, value) => {
    const m = marketplaceByCode(code);
    expect(parsePrice(text, m)).toEqual({ symbol, value, currency: m.currency, display: text });
  });

  it('drops invisible marks and collapses ordinary white space, keeping no-break spaces', () => {
    expect(parsePrice('\u200e 1.226,00\u00a0€ \n', marketplaceByCode('DE'))?.display).toBe('1.226,00\u00a0€');
    expect(parsePrice('$\n  29.99', marketplaceByCode('US'))?.display).toBe('$ 29.99');
  });

  it.each([
    ['US', '$10.99 - $15.99'],
    ['DE', '10,99 € - 15,99 €'],
    ['JP', '\uffe51,280 ～ \uffe52,000'],
    ['US', 'See price in cart'],
    ['FR', 'Voir les options d’achat'],
    ['US', ''],
  ] as Array<[DomainCode, string]>)('%s %j is not one price', (code, text) => {
    expect(parsePrice(text, marketplaceByCode(code))).toBeUndefined();
  });

  it('keeps a foreign currency as shown instead of relabelling it', () => {
    expect(parsePrice('US$12.50', marketplaceByCode('DE'))).toEqual({ symbol: 'US$', value: 12.5, currency: 'USD', display: 'US$12.50' });
    expect(parsePrice('US$12.50', marketplaceByCode('DE'), { display: 'canonical' })?.display).toBe('US$12.50');
    expect(parsePrice('$12.50', marketplaceByCode('DE'))?.currency).toBe('USD');
  });

  it('reads an English-formatted price on a comma-decimal marketplace', () => {
    expect(parsePrice('€1,226.00', marketplaceByCode('DE'))?.value).toBe(1226);
  });
});
