import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** Portuguese: BR. */
export const pt: LocaleWords = {
  language: 'pt',
  ratingPatterns: [/(?<value>\d+(?:[.,]\d+)?) de 5 estrelas/i, /(?<value>\d+(?:[.,]\d+)?) de 5\b/i],
  ratingsCountWords: ['avaliações de clientes', 'avaliações', 'avaliação', 'classificações'],
  availability: {
    inStock: ['Em estoque'],
    outOfStock: ['Não disponível', 'Indisponível', 'Fora de estoque'],
    onlyLeftPatterns: [/Apenas (?<count>\d+) em estoque/i, /S[oó] restam (?<count>\d+)/i],
  },
  sponsored: ['Patrocinado'],
  bestSellersRankLabels: ['Ranking dos mais vendidos', 'Ranking dos mais vendidos da Amazon'],
  detailLabels: {
    brand: ['Marca'],
    manufacturer: ['Fabricante'],
    ...CODE_LABELS,
    modelNumber: ['Número do modelo', 'Número do modelo do item'],
    dateFirstAvailable: ['Disponível para compra desde'],
    customerReviews: ['Avaliações de clientes'],
  },
};
