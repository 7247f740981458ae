/**
 * A product's price and stock over a period in numbers, computed in SQL over every snapshot of the
 * period (the points of GetProductHistory are downsampled; a minimum or a change between two points
 * must not be lost with them). Read with the same primary-key range as the history.
 *
 * Price changes count consecutive snapshots that both had a price and differ; stock time gives each
 * snapshot's state until the next snapshot, and the last one's until `end` (the period's end, never
 * later than now).
 *
 * Only values the history vouches for count (docs/watches.md, Quality marks): a field a snapshot
 * marks unknown or suspect is left out of every figure, as if that snapshot had not read it, so an
 * unconfirmed spike never becomes the maximum and a drifted page never ends a stock span. The
 * current price and stock are the latest trusted ones.
 */
import type { DomainCode } from '../model.js';
import type { Queryable } from '@retail/database';

export interface HistorySummaryQuery {
  readonly domain: DomainCode;
  readonly asin: string;
  /** Inclusive bounds of the period. */
  readonly from: Date;
  readonly to: Date;
  /** Until when the last snapshot's state counts: the period's end, never later than now. */
  readonly end: Date;
}

type Amount = { readonly value: number; readonly currency: string };

export interface HistorySummary {
  readonly snapshots: number;
  readonly firstAt?: Date;
  readonly lastAt?: Date;
  readonly currentPrice?: Amount;
  readonly currentInStock?: boolean;
  readonly minPrice?: Amount;
  readonly maxPrice?: Amount;
  readonly averagePrice?: Amount;
  readonly priceChanges: number;
  readonly lastChangeAt?: Date;
  readonly lastChangeFrom?: Amount;
  readonly lastChangeTo?: Amount;
  readonly daysInStock: number;
  readonly daysObserved: number;
}

interface SummaryRow {
  snapshots: number;
  first_at: Date | null;
  last_at: Date | null;
  currency: string | null;
  current_price: number | null;
  current_in_stock: boolean | null;
  min_price: number | null;
  max_price: number | null;
  average_price: number | null;
  price_changes: number;
  last_change_at: Date | null;
  last_change_from: number | null;
  last_change_to: number | null;
  days_in_stock: number;
  days_observed: number;
}

const SUMMARY_SQL = `
WITH product AS MATERIALIZED (SELECT id FROM products WHERE domain = $1 AND asin = $2),
period AS MATERIALIZED (
  SELECT at, price, price_currency, in_stock, unknown_fields || suspect_fields AS untrusted
  FROM snapshots WHERE product_id = (SELECT id FROM product) AND at BETWEEN $3 AND $4),
points AS (SELECT at, price, price_currency FROM period WHERE NOT 'price' = ANY(untrusted)),
trusted_stock AS (
  SELECT at, in_stock, lead(at) OVER (ORDER BY at) AS next_at FROM period WHERE NOT 'isInStock' = ANY(untrusted)),
priced AS (
  SELECT at, price, lag(price) OVER (ORDER BY at) AS previous FROM points WHERE price IS NOT NULL),
changes AS (SELECT at, previous, price FROM priced WHERE previous IS NOT NULL AND previous <> price),
last_point AS (SELECT
  (SELECT price FROM points ORDER BY at DESC LIMIT 1) AS price,
  (SELECT in_stock FROM trusted_stock ORDER BY at DESC LIMIT 1) AS in_stock),
last_change AS (SELECT at, previous, price FROM changes ORDER BY at DESC LIMIT 1)
SELECT
  (SELECT count(*) FROM period)::int AS snapshots,
  (SELECT min(at) FROM period) AS first_at,
  (SELECT max(at) FROM period) AS last_at,
  (SELECT price_currency FROM points WHERE price_currency IS NOT NULL ORDER BY at DESC LIMIT 1) AS currency,
  (SELECT price FROM last_point)::float8 AS current_price,
  (SELECT in_stock FROM last_point) AS current_in_stock,
  (SELECT min(price) FROM points)::float8 AS min_price,
  (SELECT max(price) FROM points)::float8 AS max_price,
  (SELECT avg(price) FROM points)::float8 AS average_price,
  (SELECT count(*) FROM changes)::int AS price_changes,
  (SELECT at FROM last_change) AS last_change_at,
  (SELECT previous FROM last_change)::float8 AS last_change_from,
  (SELECT price FROM last_change)::float8 AS last_change_to,
  coalesce((SELECT sum(extract(epoch FROM greatest(coalesce(next_at, $5::timestamptz) - at, interval '0'))) FROM trusted_stock WHERE in_stock), 0)::float8 / 86400 AS days_in_stock,
  coalesce((SELECT extract(epoch FROM greatest($5::timestamptz - min(at), interval '0')) FROM period), 0)::float8 / 86400 AS days_observed`;

const amount = (value: number | null, currency: string | null): { value: number; currency: string } | undefined =>
  value === null ? undefined : { value, currency: currency ?? '' };

export async function summarizeHistory(db: Queryable, query: HistorySummaryQuery): Promise<HistorySummary> {
  const { domain, asin, from, to, end } = query;
  const [row] = await db.query<SummaryRow>(SUMMARY_SQL, [domain, asin, from, to, end]);
  if (!row) throw new Error('the history summary query answered no row');
  const c = row.currency;
  const optional = <K extends string, V>(key: K, value: V | null | undefined) => (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
  return {
    snapshots: row.snapshots,
    ...optional('firstAt', row.first_at),
    ...optional('lastAt', row.last_at),
    ...optional('currentPrice', amount(row.current_price, c)),
    ...optional('currentInStock', row.current_in_stock),
    ...optional('minPrice', amount(row.min_price, c)),
    ...optional('maxPrice', amount(row.max_price, c)),
    ...optional('averagePrice', amount(row.average_price === null ? null : Math.round(row.average_price * 100) / 100, c)),
    priceChanges: row.price_changes,
    ...optional('lastChangeAt', row.last_change_at),
    ...optional('lastChangeFrom', amount(row.last_change_from, c)),
    ...optional('lastChangeTo', amount(row.last_change_to, c)),
    daysInStock: Math.round(row.days_in_stock * 100) / 100,
    daysObserved: Math.round(row.days_observed * 100) / 100,
  };
}
