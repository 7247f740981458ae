/*
 * Coefficients of the sales model, one row per marketplace and category (`*` = every category of
 * the marketplace without a row of its own). weeklyUnits = a × rank^(−b).
 *
 * Each row names its public source, or says `uncalibrated`: such a row is a placeholder that
 * reuses the exponent of the one published estimate and a scale the project has NOT measured. Its
 * numbers are an order of magnitude at best (docs/estimates.md explains how to calibrate one).
 */

export interface SalesCoefficient {
  /** Marketplace code, e.g. 'US'. */
  readonly marketplace: string;
  /** Category key (see CATEGORY_KEYS) or '*'. */
  readonly category: string;
  /** Weekly units at rank 1. */
  readonly a: number;
  /** Power-law exponent. */
  readonly b: number;
  /** A public source for (a, b), or 'uncalibrated'. */
  readonly source: string;
}

const BHS_2003 =
  'Brynjolfsson, Hu & Smith (2003), "Consumer Surplus in the Digital Economy", Management Science 49(11): ln(weekly units) = 10.526 − 0.871 ln(rank), Amazon.com books, 2000 data';

/** The one published fit: exp(10.526) ≈ 37,239 weekly units at rank 1, exponent 0.871. */
const BOOKS_US = { a: Math.exp(10.526), b: 0.871 } as const;

export const SALES_COEFFICIENTS: readonly SalesCoefficient[] = [
  { marketplace: 'US', category: 'books', ...BOOKS_US, source: BHS_2003 },
  { marketplace: 'US', category: '*', ...BOOKS_US, source: 'uncalibrated' },
  ...['UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL'].map((marketplace) => ({
    marketplace,
    category: '*',
    ...BOOKS_US,
    source: 'uncalibrated',
  })),
];

/** Top-level best-sellers category names (as product pages write them) → category key. */
export const CATEGORY_KEYS: Readonly<Record<string, string>> = {
  books: 'books',
  'bücher': 'books',
  livres: 'books',
  libri: 'books',
  libros: 'books',
  livros: 'books',
  '本': 'books',
  'książki': 'books',
};

/** The coefficient row for a marketplace and a top-level category name. */
export function coefficientFor(marketplace: string, categoryName: string | undefined): SalesCoefficient {
  const key = categoryName ? CATEGORY_KEYS[categoryName.trim().toLowerCase()] : undefined;
  const exact = key ? SALES_COEFFICIENTS.find((c) => c.marketplace === marketplace && c.category === key) : undefined;
  const fallback = SALES_COEFFICIENTS.find((c) => c.marketplace === marketplace && c.category === '*');
  const row = exact ?? fallback;
  if (!row) throw new Error(`no sales coefficient row for ${marketplace}`);
  return row;
}
