import { describe, expect, it } from 'vitest';
import { parseRankLine } from '../parsers/sales.js';
import { SALES_COEFFICIENTS, coefficientFor } from './sales-coefficients.js';
import { estimateSales } from './sales.js';

describe('best-sellers rank lines', () => {
  it.each([
    ['#5,211 in Cell Phones & Accessories (See Top 100 in Cell Phones & Accessories)', 5211, 'Cell Phones & Accessories'],
    ['Nr. 109 in Musik-CDs & Vinyl (Siehe Top 100 in Musik-CDs & Vinyl)', 109, 'Musik-CDs & Vinyl'],
    ['3.421 en Livres anglais et étrangers (Voir les 100 premiers)', 3421, 'Livres anglais et étrangers'],
    ['n. 1.234 in Casa e cucina', 1234, 'Casa e cucina'],
    ['nº 2.417 en Robots aspiradores', 2417, 'Robots aspiradores'],
    ['Nº 401 em Ferramentas e Materiais de Construção', 401, 'Ferramentas e Materiais de Construção'],
    ['- 1,234位ホーム＆キッチン (の売れ筋ランキングを見る)', 1234, 'ホーム＆キッチン'],
    ['Nr 1 234 w kategorii Dom i kuchnia', 1234, 'Dom i kuchnia'],
  ])('%s', (line, rank, category) => {
    expect(parseRankLine(line)).toEqual({ rank, category });
  });
});

describe('sales model', () => {
  it('every coefficient row cites a source or says uncalibrated, and every marketplace has a default row', () => {
    for (const row of SALES_COEFFICIENTS) {
      expect(row.source === 'uncalibrated' || row.source.length > 20).toBe(true);
      expect(row.a).toBeGreaterThan(0);
      expect(row.b).toBeGreaterThan(0);
    }
    for (const code of ['US', 'UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL']) {
      expect(coefficientFor(code, 'Anything').category).toBe('*');
    }
    expect(coefficientFor('US', 'Books').source).toMatch(/Brynjolfsson/);
    expect(coefficientFor('DE', 'Bücher').source).toBe('uncalibrated');
  });

  it('applies the power law to the top-level rank and derives month and year from the week', () => {
    const estimate = estimateSales([{ rank: 5838, category: 'Books', categoryId: 'books' }, { rank: 2, category: 'C', categoryId: undefined }], 'US')!;
    const weekly = Math.exp(10.526) * Math.pow(5838, -0.871);
    expect(estimate.weeklyUnitSales).toBe(Math.round(weekly));
    expect(estimate.monthlyUnitSales).toBe(Math.round((weekly * 365.25) / 12 / 7));
    expect(estimate.annualUnitSales).toBe(Math.round((weekly * 365.25) / 7));
    expect(estimate).toMatchObject({ bestSellersRank: 5838, category: 'Books' });
  });

  it('falls as the rank grows and is undefined without a rank', () => {
    const at = (rank: number) => estimateSales([{ rank, category: 'Toys', categoryId: undefined }], 'UK')!.weeklyUnitSales;
    expect(at(10)).toBeGreaterThan(at(1000));
    expect(at(1000)).toBeGreaterThan(at(100000));
    expect(estimateSales([], 'US')).toBeUndefined();
  });
});
