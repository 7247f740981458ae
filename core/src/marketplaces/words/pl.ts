import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** Polish: PL. */
export const pl: LocaleWords = {
  language: 'pl',
  ratingPatterns: [/(?<value>\d+(?:[.,]\d+)?) na 5 gwiazdek/i, /(?<value>\d+(?:[.,]\d+)?) z 5 gwiazdek/i, /(?<value>\d+(?:[.,]\d+)?) na 5\b/i],
  ratingsCountWords: ['ocen klientów', 'ocen', 'oceny', 'ocena', 'recenzji'],
  availability: {
    inStock: ['Dostępny', 'W magazynie', 'Na stanie'],
    outOfStock: ['Obecnie niedostępny', 'Tymczasowo niedostępny', 'Niedostępny'],
    onlyLeftPatterns: [/Zosta(?:ły|ło|ł) tylko (?<count>\d+)/i],
  },
  sponsored: ['Sponsorowane'],
  bestSellersRankLabels: ['Ranking najlepiej sprzedających się', 'Ranking najlepiej sprzedających się produktów w Amazon'],
  detailLabels: {
    brand: ['Marka'],
    manufacturer: ['Producent'],
    ...CODE_LABELS,
    modelNumber: ['Numer modelu produktu', 'Numer modelu'],
    dateFirstAvailable: ['Data pierwszej dostępności'],
    customerReviews: ['Opinie klientów'],
  },
};
