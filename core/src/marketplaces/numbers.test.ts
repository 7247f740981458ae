import { describe, expect, it } from 'vitest';
import { type DomainCode, marketplaceByCode, parseCount, parseLocaleNumber, parseRating } from './index.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';

/** Real rating phrases per domain. */
const RATINGS: ReadonlyArray<[DomainCode, string, number]> = [
  ['US', '4.5 out of 5 stars', 4.5],
  ['UK', '4.7 out of 5 stars', 4.7],
  ['CA', '4.6 out of 5', 4.6],
  ['DE', '4,5 von 5 Sternen', 4.5],
  ['FR', '4,5 sur 5 étoiles', 4.5],
  ['IT', '4,5 su 5 stelle', 4.5],
  ['ES', '4,5 de 5 estrellas', 4.5],
  ['AU', '4.2 out of 5 stars', 4.2],
  ['IN', '3.9 out of 5 stars', 3.9],
  ['MX', '4.5 de 5 estrellas', 4.5],
  ['BR', '4,5 de 5 estrelas', 4.5],
  ['JP', '5つ星のうち4.1', 4.1],
  ['JP', '5つ星のうち 3.0', 3],
  ['PL', '4,5 na 5 gwiazdek', 4.5],
  ['DE', '4.5 out of 5 stars', 4.5],
  ['US', '5', 5],
];

describe('parseRating', () => {
  it.each(RATINGS)('%s %j → %d', (code, text, rating) => {
    expect(parseRating(text, marketplaceByCode(code))).toBe(rating);
  });
  it.each([['US', 'no rating yet'], ['US', '7 out of 5 stars'], ['DE', '']] as Array<[DomainCode, string]>)('%s %j → undefined', (code, text) => {
    expect(parseRating(text, marketplaceByCode(code))).toBeUndefined();
  });
});

/** Real ratings-count texts per domain. */
const COUNTS: ReadonlyArray<[DomainCode, string, number]> = [
  ['US', '1,234 ratings', 1234],
  ['US', '12,345 global ratings', 12345],
  ['UK', '(987)', 987],
  ['CA', '1 rating', 1],
  ['DE', '1.234 Sternebewertungen', 1234],
  ['FR', `2${NBSP}345 évaluations`, 2345],
  ['FR', `12${NNBSP}345 évaluations`, 12345],
  ['IT', '1.234 valutazioni', 1234],
  ['ES', '1.234 valoraciones', 1234],
  ['AU', '56 ratings', 56],
  ['IN', '1,23,456 ratings', 123456],
  ['MX', '1,234 calificaciones', 1234],
  ['BR', '1.234 avaliações de clientes', 1234],
  ['JP', '1,234個の評価', 1234],
  ['PL', `2${NBSP}345 ocen`, 2345],
  ['US', '4.5 out of 5 stars 1,234 ratings', 1234],
  ['US', '(2.5K)', 2500],
];

describe('parseCount', () => {
  it.each(COUNTS)('%s %j → %d', (code, text, count) => {
    expect(parseCount(text, marketplaceByCode(code))).toBe(count);
  });
  it('gives undefined without a number', () => {
    expect(parseCount('No ratings', marketplaceByCode('US'))).toBeUndefined();
  });
});

describe('parseLocaleNumber', () => {
  it.each([
    ['US', '1,226.50', 1226.5],
    ['DE', '1.226,50', 1226.5],
    ['DE', '1,5', 1.5],
    ['FR', `1${NNBSP}226,50`, 1226.5],
    ['IN', '1,23,456', 123456],
    ['JP', '１，２８０', 1280],
    ['PL', `1${NBSP}226,50`, 1226.5],
    ['BR', '1.226,50', 1226.5],
    ['US', 'none', undefined],
  ] as Array<[DomainCode, string, number | undefined]>)('%s %j → %s', (code, text, n) => {
    expect(parseLocaleNumber(text, marketplaceByCode(code))).toBe(n);
  });
});
