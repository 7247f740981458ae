/**
 * Snapshots: shared facts about the marketplace, one row per product and time in the month-partitioned
 * `snapshots` table. History is downsampled in SQL, so a year of hourly points never leaves the
 * database as 8,760 rows when a chart wants 500.
 */
import { type DomainCode, qualityOf, type Snapshot, type SnapshotQuality, type TrackedField, untrustedFields } from '../model.js';
import type { Queryable } from '@retail/database';
import { ensurePartitionsFrom } from './partitions.js';
import { type HistorySummaryQuery, summarizeHistory } from './history-summary.js';

export interface RecordedSnapshot {
  /** The snapshot's id: with the watch and event type, the key that makes event appends idempotent. */
  readonly id: string;
  /** The product's latest snapshot before this one, or null for its first. */
  readonly previous: Snapshot | null;
}

export interface HistoryQuery {
  readonly domain: DomainCode;
  readonly asin: string;
  /** Inclusive bounds. */
  readonly from: Date;
  readonly to: Date;
  /**
   * At most this many points: the span between the first and last point found is cut into
   * `maxPoints` equal buckets and each bucket answers with its last point, or with its last marked
   * point (quality not 'ok') when it has one: a downsampled history never hides a suspect reading.
   * Without it, every point.
   */
  readonly maxPoints?: number;
}

export interface SnapshotRow {
  at: Date;
  retrieved_at: Date;
  price: number | null;
  price_currency: string | null;
  list_price: number | null;
  list_price_currency: string | null;
  in_stock: boolean | null;
  buybox_seller_id: string | null;
  rating: number | null;
  ratings_total: number | null;
  best_sellers_rank: number | null;
  best_sellers_category: string | null;
  offer_count: number | null;
  unknown_fields: TrackedField[];
  suspect_fields: TrackedField[];
  quality: SnapshotQuality;
}

export const SNAPSHOT_COLUMNS = `at, retrieved_at, price, price_currency, list_price, list_price_currency, in_stock, buybox_seller_id,
  rating, ratings_total, best_sellers_rank, best_sellers_category, offer_count, unknown_fields, suspect_fields, quality`;

/** A SQL NULL is an absent field, as in the model. */
function present<K extends string, V>(key: K, value: V | null): { [P in K]?: V } {
  return (value === null ? {} : { [key]: value }) as { [P in K]?: V };
}

export function snapshotOf(domain: DomainCode, asin: string, row: SnapshotRow): Snapshot {
  return {
    domain,
    asin,
    at: row.at,
    retrievedAt: row.retrieved_at,
    ...(row.price !== null && { price: { value: row.price, currency: row.price_currency ?? '' } }),
    ...(row.list_price !== null && { listPrice: { value: row.list_price, currency: row.list_price_currency ?? '' } }),
    ...present('isInStock', row.in_stock),
    ...present('buyboxSellerId', row.buybox_seller_id),
    ...present('rating', row.rating),
    ...present('ratingsTotal', row.ratings_total),
    ...present('bestSellersRank', row.best_sellers_rank),
    ...present('bestSellersCategory', row.best_sellers_category),
    ...present('offerCount', row.offer_count),
    // The marks are left out when empty and 'ok', as the model omits them: an unmarked point reads as before.
    ...(row.unknown_fields.length > 0 && { unknownFields: row.unknown_fields }),
    ...(row.suspect_fields.length > 0 && { suspectFields: row.suspect_fields }),
    ...(row.quality !== 'ok' && { quality: row.quality }),
  };
}

/** The snapshot without the fields it does not vouch for, and with the values that stand in for them. */
function withTrustedValues(latest: Snapshot, resolved: ReadonlyMap<TrackedField, Snapshot>): Snapshot {
  const out: Record<string, unknown> = { ...latest };
  const unresolved: TrackedField[] = [];
  for (const field of untrustedFields(latest)) {
    delete out[field];
    const source = resolved.get(field);
    if (!source) unresolved.push(field);
    else if (source[field] !== undefined) out[field] = source[field];
  }
  delete out.suspectFields;
  delete out.quality;
  if (unresolved.length > 0) out.unknownFields = unresolved;
  else delete out.unknownFields;
  return out as unknown as Snapshot;
}

/** PostgreSQL's SQLSTATE when a row falls in no partition (check_violation). */
const NO_PARTITION = '23514';

export function createSnapshotRepository(db: Queryable) {
  /** The product's id, registering it on first sight (two refreshes racing both get the one id). */
  async function productId(domain: DomainCode, asin: string): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `WITH inserted AS (
         INSERT INTO products (domain, asin) VALUES ($1, $2) ON CONFLICT (domain, asin) DO NOTHING RETURNING id)
       SELECT id FROM inserted UNION ALL SELECT id FROM products WHERE domain = $1 AND asin = $2`,
      [domain, asin],
    );
    return row!.id;
  }

  async function insert(product: number, snapshot: Snapshot): Promise<string> {
    // A retried refresh that stores the same (product, at) again keeps the first row and its id.
    const [row] = await db.query<{ id: string }>(
      `WITH inserted AS (
         INSERT INTO snapshots (product_id, at, retrieved_at, price, price_currency, list_price, list_price_currency, in_stock,
           buybox_seller_id, rating, ratings_total, best_sellers_rank, best_sellers_category, offer_count, unknown_fields, suspect_fields, quality)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         ON CONFLICT (product_id, at) DO NOTHING RETURNING id)
       SELECT id FROM inserted UNION ALL SELECT id FROM snapshots WHERE product_id = $1 AND at = $2`,
      [product, snapshot.at, snapshot.retrievedAt, snapshot.price?.value ?? null, snapshot.price?.currency ?? null,
        snapshot.listPrice?.value ?? null, snapshot.listPrice?.currency ?? null, snapshot.isInStock ?? null,
        snapshot.buyboxSellerId ?? null, snapshot.rating ?? null, snapshot.ratingsTotal ?? null, snapshot.bestSellersRank ?? null,
        snapshot.bestSellersCategory ?? null, snapshot.offerCount ?? null, [...(snapshot.unknownFields ?? [])], [...(snapshot.suspectFields ?? [])],
        qualityOf(snapshot)],
    );
    return row!.id;
  }

  return {
    /**
     * Stores what a refresh saw and returns the product's snapshot before it, which the conditions
     * compare against. A month without a partition yet (maintenance has not run) is created on the spot.
     */
    async record(snapshot: Snapshot): Promise<RecordedSnapshot> {
      const product = await productId(snapshot.domain, snapshot.asin);
      const id = await insert(product, snapshot).catch(async (error: { code?: string }) => {
        if (error.code !== NO_PARTITION) throw error;
        await ensurePartitionsFrom(db, snapshot.at, 1);
        return insert(product, snapshot);
      });
      const [previous] = await db.query<SnapshotRow>(
        `SELECT ${SNAPSHOT_COLUMNS} FROM snapshots WHERE product_id = $1 AND at < $2 ORDER BY at DESC LIMIT 1`,
        [product, snapshot.at],
      );
      return { id, previous: previous ? snapshotOf(snapshot.domain, snapshot.asin, previous) : null };
    },

    /**
     * What the product's history vouches for as of `at` (inclusive): its latest snapshot, each field
     * that snapshot marks unknown or suspect replaced by the field's latest trusted value before it
     * (absent when that value was a known absence). A field with no trusted value yet stays listed in
     * `unknownFields`. Null before the product's first snapshot. One query in the common case (an
     * unmarked latest snapshot), one more per marked field otherwise.
     */
    async trustedAt(domain: DomainCode, asin: string, at: Date): Promise<Snapshot | null> {
      const [row] = await db.query<SnapshotRow & { product_id: number }>(
        `SELECT product_id, ${SNAPSHOT_COLUMNS} FROM snapshots
         WHERE product_id = (SELECT id FROM products WHERE domain = $1 AND asin = $2) AND at <= $3 ORDER BY at DESC LIMIT 1`,
        [domain, asin, at],
      );
      if (!row) return null;
      const latest = snapshotOf(domain, asin, row);
      const resolved = new Map<TrackedField, Snapshot>();
      for (const field of untrustedFields(latest)) {
        const [source] = await db.query<SnapshotRow>(
          `SELECT ${SNAPSHOT_COLUMNS} FROM snapshots
           WHERE product_id = $1 AND at < $2 AND NOT ($3 = ANY(unknown_fields) OR $3 = ANY(suspect_fields))
           ORDER BY at DESC LIMIT 1`,
          [row.product_id, row.at, field],
        );
        if (source) resolved.set(field, snapshotOf(domain, asin, source));
      }
      return withTrustedValues(latest, resolved);
    },

    /** The product's points between `from` and `to`, oldest first, downsampled when `maxPoints` is given. */
    async history(query: HistoryQuery): Promise<Snapshot[]> {
      const { domain, asin, from, to, maxPoints } = query;
      if (maxPoints !== undefined && (!Number.isInteger(maxPoints) || maxPoints < 1)) throw new RangeError(`maxPoints must be a positive integer, got ${maxPoints}`);
      const rows = await db.query<SnapshotRow>(
        maxPoints === undefined
          ? `SELECT ${SNAPSHOT_COLUMNS} FROM snapshots
             WHERE product_id = (SELECT id FROM products WHERE domain = $1 AND asin = $2) AND at BETWEEN $3 AND $4
             ORDER BY at`
          : // Bucket width: the span of the points found, divided so that at most $5 buckets cover
            // it (whole milliseconds, rounded up), computed once (MATERIALIZED: inlined, it would be
            // evaluated per row). date_bin places each point in its bucket from the first point and
            // max(at) picks the last of each: that needs only the primary key (an index-only scan),
            // so the table is read for the chosen points alone (500 rows, not 8,760 scattered ones:
            // see docs/engineering-watches.md "Numbers"). The LATERAL probe (LIMIT 1 keeps it from being
            // flattened into a hash join over every point) touches one partition per point. A bucket
            // with a marked point answers with its last marked one, found through the partial index
            // snapshots_marked (marked points only), so the other rows stay unread.
            `WITH product AS MATERIALIZED (SELECT id FROM products WHERE domain = $1 AND asin = $2),
             span AS (
               SELECT min(at) AS first, max(at) AS last FROM snapshots
               WHERE product_id = (SELECT id FROM product) AND at BETWEEN $3 AND $4),
             width AS MATERIALIZED (
               SELECT first, (floor(extract(epoch FROM last - first) * 1000 / $5::integer) + 1) * interval '1 millisecond' AS bucket
               FROM span),
             last_of_bucket AS (
               SELECT date_bin(width.bucket, s.at, width.first) AS bucket, max(s.at) AS at FROM snapshots s, width
               WHERE s.product_id = (SELECT id FROM product) AND s.at BETWEEN $3 AND $4
               GROUP BY 1),
             last_marked AS (
               SELECT date_bin(width.bucket, s.at, width.first) AS bucket, max(s.at) AS at FROM snapshots s, width
               WHERE s.product_id = (SELECT id FROM product) AND s.at BETWEEN $3 AND $4 AND s.quality <> 'ok'
               GROUP BY 1),
             chosen AS (
               SELECT coalesce(m.at, l.at) AS at FROM last_of_bucket l LEFT JOIN last_marked m USING (bucket))
             SELECT point.* FROM chosen AS last_of_bucket CROSS JOIN LATERAL (
               SELECT ${SNAPSHOT_COLUMNS} FROM snapshots
               WHERE product_id = (SELECT id FROM product) AND at = last_of_bucket.at
               LIMIT 1) AS point
             ORDER BY point.at`,
        maxPoints === undefined ? [domain, asin, from, to] : [domain, asin, from, to, maxPoints],
      );
      return rows.map((row) => snapshotOf(domain, asin, row));
    },

    /** The period in numbers, over every snapshot in it (history-summary.ts). */
    summary(query: HistorySummaryQuery) {
      return summarizeHistory(db, query);
    },
  };
}

export type SnapshotRepository = ReturnType<typeof createSnapshotRepository>;
