import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** German: DE. */
export const de: LocaleWords = {
  language: 'de',
  ratingPatterns: [/(?<value>\d+(?:[.,]\d+)?) von 5 Sternen/i, /(?<value>\d+(?:[.,]\d+)?) von 5\b/i],
  ratingsCountWords: ['Sternebewertungen', 'Sternebewertung', 'globale Bewertungen', 'Bewertungen', 'Bewertung', 'Kundenrezensionen', 'Kundenrezension', 'Rezensionen'],
  availability: {
    inStock: ['Auf Lager', 'Gewöhnlich versandfertig in', 'Vorrätig'],
    outOfStock: ['Derzeit nicht verfügbar', 'Vorübergehend nicht auf Lager', 'Nicht auf Lager'],
    onlyLeftPatterns: [/Nur noch (?<count>\d+) (?:Stück )?auf Lager/i],
  },
  sponsored: ['Gesponsert'],
  bestSellersRankLabels: ['Amazon Bestseller-Rang', 'Bestseller-Rang'],
  detailLabels: {
    brand: ['Marke', 'Markenname'],
    manufacturer: ['Hersteller'],
    ...CODE_LABELS,
    modelNumber: ['Modellnummer', 'Modellnummer des Artikels', 'Artikelnummer'],
    dateFirstAvailable: ['Im Angebot von Amazon.de seit'],
    customerReviews: ['Kundenrezensionen'],
  },
};
