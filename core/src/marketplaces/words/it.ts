import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** Italian: IT. */
export const it: LocaleWords = {
  language: 'it',
  ratingPatterns: [/(?<value>\d+(?:[.,]\d+)?) su 5 stelle/i, /(?<value>\d+(?:[.,]\d+)?) su 5\b/i],
  ratingsCountWords: ['valutazioni', 'valutazione', 'recensioni dei clienti', 'recensioni'],
  availability: {
    inStock: ['Disponibilità immediata', 'Disponibile'],
    outOfStock: ['Attualmente non disponibile', 'Non disponibile'],
    onlyLeftPatterns: [/Solo (?<count>\d+) rimast/i, /Disponibilità: solo (?<count>\d+)/i],
  },
  sponsored: ['Sponsorizzato'],
  bestSellersRankLabels: ['Posizione nella classifica Bestseller di Amazon', 'Classifica Bestseller di Amazon'],
  detailLabels: {
    brand: ['Marca', 'Marchio'],
    manufacturer: ['Produttore'],
    ...CODE_LABELS,
    modelNumber: ['Numero modello articolo', 'Numero modello'],
    dateFirstAvailable: ['Disponibile su Amazon.it a partire dal'],
    customerReviews: ['Recensioni dei clienti'],
  },
};
