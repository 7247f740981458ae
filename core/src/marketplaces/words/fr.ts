import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** French: FR. Labels exist with both the straight (') and the typographic (’) apostrophe. */
export const fr: LocaleWords = {
  language: 'fr',
  ratingPatterns: [/(?<value>\d+(?:[.,]\d+)?) sur 5 étoiles/i, /(?<value>\d+(?:[.,]\d+)?) étoiles sur 5/i, /(?<value>\d+(?:[.,]\d+)?) sur 5\b/i],
  ratingsCountWords: ['évaluations', 'évaluation', 'commentaires client', 'commentaire client', 'commentaires', 'notes'],
  availability: {
    inStock: ['En stock', 'Habituellement expédié sous'],
    outOfStock: ['Actuellement indisponible', 'Temporairement en rupture de stock', 'Rupture de stock'],
    onlyLeftPatterns: [/Il ne reste plus que (?<count>\d+) exemplaire\(s\) en stock/i, /Il ne reste plus que (?<count>\d+)/i],
  },
  sponsored: ['Sponsorisé'],
  bestSellersRankLabels: ["Classement des meilleures ventes d'Amazon", 'Classement des meilleures ventes d’Amazon', 'Classement des meilleures ventes'],
  detailLabels: {
    brand: ['Marque', 'Nom de marque'],
    manufacturer: ['Fabricant'],
    ...CODE_LABELS,
    upc: ['UPC', 'Code UPC'],
    ean: ['EAN', 'Code EAN'],
    modelNumber: ["Numéro du modèle de l'article", 'Numéro du modèle de l’article', 'Référence du modèle'],
    dateFirstAvailable: ['Date de mise en ligne sur Amazon.fr'],
    customerReviews: ['Moyenne des commentaires client', 'Commentaires client'],
  },
};
