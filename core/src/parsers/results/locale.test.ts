import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../../marketplaces/index.js';
import { formatDisplay, readCount, readPrice, readRating } from './locale.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';

describe('reading prices as each marketplace writes them', () => {
  it.each([
    ['US', '$25.18', 25.18, '$'],
    ['US', '$1,226.00', 1226, '$'],
    ['UK', '£1,049.99', 1049.99, '£'],
    ['DE', `1.226,00${NBSP}€`, 1226, '€'],
    ['DE', 'EUR 24,90', 24.9, 'EUR'],
    ['FR', `1${NNBSP}226,00${NBSP}€`, 1226, '€'],
    ['IT', `13,97${NBSP}€`, 13.97, '€'],
    ['ES', `1.226,00${NBSP}€`, 1226, '€'],
    ['IN', '₹1,23,456.00', 123456, '₹'],
    ['JP', '￥15,592', 15592, '￥'],
    ['JP', '￥1,280', 1280, '￥'],
    ['BR', 'R$ 1.439,01', 1439.01, 'R$'],
    ['BR', 'R$3.374,10', 3374.1, 'R$'],
    ['MX', '$1,299.00', 1299, '$'],
    ['PL', `1${NBSP}226,00${NBSP}zł`, 1226, 'zł'],
    ['AU', '$49.95', 49.95, '$'],
    ['CA', 'CDN$ 19.99', 19.99, 'CDN$'],
  ] as const)('%s %s', (code, text, value, symbol) => {
    const m = marketplaceByCode(code);
    // display is the price as the page shows it (no-break spaces kept).
    expect(readPrice(text, m)).toEqual({ symbol, value, currency: m.currency, display: text });
  });

  it.each([
    ['DE', 1226, `1.226,00${NBSP}€`],
    ['FR', 1226, `1${NNBSP}226,00${NBSP}€`],
    ['IN', 123456, '₹1,23,456.00'],
    ['JP', 1280, '￥1,280'],
    ['PL', 1226, `1${NBSP}226,00${NBSP}zł`],
    ['BR', 1439.01, `R$${NBSP}1.439,01`],
  ] as const)('%s formats %d as %s when a price is assembled from parts', (code, value, display) => {
    expect(formatDisplay(value, marketplaceByCode(code))).toBe(display);
  });

  it('omits ranges and texts without a number instead of guessing', () => {
    const us = marketplaceByCode('US');
    expect(readPrice('$5.99 - $12.99', us)).toBeUndefined();
    expect(readPrice('See price in cart', us)).toBeUndefined();
    expect(readPrice(undefined, us)).toBeUndefined();
  });

  it('reads a three-digit tail as grouping and a one-or-two-digit tail as decimals', () => {
    expect(readPrice('R$ 1.439', marketplaceByCode('BR'))?.value).toBe(1439);
    expect(readPrice('24,9 €', marketplaceByCode('DE'))?.value).toBe(24.9);
    expect(readPrice('$1,234', marketplaceByCode('US'))?.value).toBe(1234);
  });

  it('refuses a text with more than one number rather than pick one', () => {
    expect(readPrice('1 offer from $59.99', marketplaceByCode('US'))).toBeUndefined();
  });
});

describe('ratings and counts', () => {
  it.each([
    ['US', '4.5 out of 5 stars', 4.5],
    ['DE', '4,3 von 5 Sternen', 4.3],
    ['FR', '4,7 sur 5 étoiles', 4.7],
    ['IT', '5,0 su 5 stelle', 5],
    ['ES', '4,2 de 5 estrellas', 4.2],
    ['BR', '4,8 de 5 estrelas', 4.8],
    ['JP', '5つ星のうち3.9', 3.9],
    ['PL', '4,6 z 5 gwiazdek', 4.6],
  ] as const)('%s "%s"', (code, text, rating) => {
    expect(readRating(text, marketplaceByCode(code))).toBe(rating);
  });

  it('reads grouped counts and refuses abbreviated ones', () => {
    expect(readCount('132,223')).toBe(132223);
    expect(readCount('(2.982 avaliações)')).toBe(2982);
    expect(readCount(`1${NBSP}234 ocen`)).toBe(1234);
    expect(readCount('183個の評価')).toBe(183);
    expect(readCount('(84.7K)')).toBeUndefined();
    expect(readCount('no digits')).toBeUndefined();
  });
});
