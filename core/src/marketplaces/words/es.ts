import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** Spanish: ES and MX (MX says "calificaciones" where ES says "valoraciones"). */
export const es: LocaleWords = {
  language: 'es',
  ratingPatterns: [/(?<value>\d+(?:[.,]\d+)?) de 5 estrellas/i, /(?<value>\d+(?:[.,]\d+)?) de 5\b/i],
  ratingsCountWords: ['valoraciones', 'valoración', 'calificaciones', 'calificación', 'opiniones de clientes', 'opiniones'],
  availability: {
    inStock: ['En stock', 'Disponible'],
    outOfStock: ['Actualmente no disponible', 'Temporalmente sin stock', 'No disponible', 'Agotado'],
    onlyLeftPatterns: [/S[oó]lo queda(?:n)? (?<count>\d+)/i],
  },
  sponsored: ['Patrocinado'],
  bestSellersRankLabels: ['Clasificación en los más vendidos de Amazon', 'Clasificación en los más vendidos'],
  detailLabels: {
    brand: ['Marca'],
    manufacturer: ['Fabricante'],
    ...CODE_LABELS,
    modelNumber: ['Número de modelo del producto', 'Número de modelo'],
    dateFirstAvailable: ['Producto en Amazon.es desde', 'Producto en Amazon.com.mx desde', 'Fecha de disponibilidad'],
    customerReviews: ['Opiniones de los clientes', 'Valoración media de los clientes'],
  },
};
