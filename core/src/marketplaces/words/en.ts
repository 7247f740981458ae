import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** English: US, UK, CA, AU, IN. */
export const en: LocaleWords = {
  language: 'en',
  ratingPatterns: [/(?<value>\d+(?:[.,]\d+)?) out of 5 stars/i, /(?<value>\d+(?:[.,]\d+)?) out of 5\b/i],
  ratingsCountWords: ['global ratings', 'ratings', 'rating', 'customer reviews', 'customer review', 'reviews', 'review'],
  availability: {
    inStock: ['In stock', 'Usually dispatched within', 'Usually ships within', 'Available to ship'],
    outOfStock: ['Currently unavailable', 'Temporarily out of stock', 'Out of stock'],
    onlyLeftPatterns: [/Only (?<count>\d+) left in stock/i],
  },
  sponsored: ['Sponsored'],
  bestSellersRankLabels: ['Best Sellers Rank', 'Amazon Best Sellers Rank', 'Amazon Bestsellers Rank'],
  detailLabels: {
    brand: ['Brand', 'Brand Name'],
    manufacturer: ['Manufacturer'],
    ...CODE_LABELS,
    modelNumber: ['Item model number', 'Model Number', 'Model name'],
    dateFirstAvailable: ['Date First Available'],
    customerReviews: ['Customer Reviews'],
  },
};
