import type { BestSellersRank } from '../parsers/sales.js';
import { coefficientFor, type SalesCoefficient } from './sales-coefficients.js';

/** The sales estimate of docs/contract.md (`retailProduct.salesEstimate`) plus the row it used. */
export interface SalesEstimate {
  readonly weeklyUnitSales: number;
  readonly monthlyUnitSales: number;
  readonly annualUnitSales: number;
  readonly bestSellersRank: number;
  readonly category: string;
  readonly coefficient: SalesCoefficient;
}

const DAYS_PER_MONTH = 365.25 / 12;

/*
 * The sales model (docs/estimates.md, "Sales"): weekly units = a × rank^(−b) with (a, b) from the
 * coefficient table for the marketplace and the rank's top-level category; monthly = weekly × 30.44
 * / 7; annual = weekly × 52.18. The rank used is the top-level one (the first the page lists), since
 * sub-category ranks are not comparable across categories. Undefined without a rank.
 */
export function estimateSales(ranks: readonly BestSellersRank[], marketplace: string): SalesEstimate | undefined {
  const top = ranks[0];
  if (!top || top.rank < 1) return undefined;
  const coefficient = coefficientFor(marketplace, top.category);
  const weekly = coefficient.a * Math.pow(top.rank, -coefficient.b);
  return {
    weeklyUnitSales: Math.round(weekly),
    monthlyUnitSales: Math.round((weekly * DAYS_PER_MONTH) / 7),
    annualUnitSales: Math.round((weekly * 365.25) / 7),
    bestSellersRank: top.rank,
    category: top.category,
    coefficient,
  };
}
