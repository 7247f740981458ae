import { describe, expect, it } from 'vitest';
import { type DomainCode, marketplaceByCode } from './index.js';

/** "Only N left" phrases as each marketplace writes them. */
const ONLY_LEFT: ReadonlyArray<[DomainCode, string, number]> = [
  ['US', 'Only 3 left in stock - order soon.', 3],
  ['UK', 'Only 1 left in stock.', 1],
  ['DE', 'Nur noch 2 auf Lager', 2],
  ['FR', 'Il ne reste plus que 4 exemplaire(s) en stock.', 4],
  ['IT', 'Solo 2 rimasti', 2],
  ['ES', 'Solo quedan 3 en stock', 3],
  ['MX', 'Sólo queda 1 en existencia', 1],
  ['BR', 'Apenas 2 em estoque', 2],
  ['JP', '残り2点 ご注文はお早めに', 2],
  ['PL', 'Zostały tylko 3', 3],
];

describe('locale words', () => {
  it.each(ONLY_LEFT)('%s reads %j as %d left', (code, text, count) => {
    const found = marketplaceByCode(code)
      .words.availability.onlyLeftPatterns.map((p) => p.exec(text)?.groups?.count)
      .find((c) => c !== undefined);
    expect(Number(found)).toBe(count);
  });

  it.each([
    ['US', 'Best Sellers Rank', 'Brand', 'ratings'],
    ['DE', 'Amazon Bestseller-Rang', 'Marke', 'Sternebewertungen'],
    ['FR', "Classement des meilleures ventes d'Amazon", 'Marque', 'évaluations'],
    ['IT', 'Posizione nella classifica Bestseller di Amazon', 'Marca', 'valutazioni'],
    ['ES', 'Clasificación en los más vendidos de Amazon', 'Marca', 'valoraciones'],
    ['BR', 'Ranking dos mais vendidos', 'Marca', 'avaliações'],
    ['JP', 'Amazon 売れ筋ランキング', 'ブランド', '個の評価'],
    ['PL', 'Ranking najlepiej sprzedających się', 'Marka', 'ocen'],
  ] as Array<[DomainCode, string, string, string]>)('%s has its rank label, brand label and count word', (code, rank, brand, count) => {
    const { words } = marketplaceByCode(code);
    expect(words.bestSellersRankLabels).toContain(rank);
    expect(words.detailLabels.brand).toContain(brand);
    expect(words.ratingsCountWords).toContain(count);
    expect(words.sponsored.length).toBeGreaterThan(0);
    expect(words.detailLabels.isbn13).toContain('ISBN-13');
  });
});
