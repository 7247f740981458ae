import type { LocaleWords } from '../types.js';
import { CODE_LABELS } from './code-labels.js';

/** Japanese: JP. Counts are written without a space before the word ("1,234個の評価"). */
export const ja: LocaleWords = {
  language: 'ja',
  ratingPatterns: [/5つ星のうち\s*(?<value>\d+(?:[.,]\d+)?)/],
  ratingsCountWords: ['個の評価', '件のカスタマーレビュー', '件の評価', '評価'],
  availability: {
    inStock: ['在庫あり'],
    outOfStock: ['現在在庫切れです', '一時的に在庫切れ', '在庫切れ'],
    onlyLeftPatterns: [/残り\s*(?<count>\d+)\s*点/],
  },
  sponsored: ['スポンサー'],
  bestSellersRankLabels: ['Amazon 売れ筋ランキング', '売れ筋ランキング'],
  detailLabels: {
    brand: ['ブランド', 'ブランド名'],
    manufacturer: ['メーカー', '製造元'],
    ...CODE_LABELS,
    ean: ['EAN', 'JAN'],
    modelNumber: ['型番', 'メーカー型番'],
    dateFirstAvailable: ['Amazon.co.jp での取り扱い開始日', '発売日'],
    customerReviews: ['カスタマーレビュー'],
  },
};
