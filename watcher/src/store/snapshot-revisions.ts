/**
 * A page's corrections to the history points that came from it (re-parsing, store/reparse-jobs.ts):
 * each changed field written to its snapshot, the point marked revised, and the value before kept
 * in snapshot_revisions for audit. Runs inside the caller's transaction.
 */
import type { Queryable } from '@retail/database';
import type { DomainCode, Snapshot } from '../model.js';
import { type FieldRevision, type ReparsedField, revisedPoint, reviseFields } from '../reparse/point-revision.js';
import type { SnapshotFields } from '../refresh/snapshot-reader.js';
import { type ArchivedPageRow, parserOfPage } from './archived-pages.js';
import { SNAPSHOT_COLUMNS, snapshotOf, type SnapshotRow } from './snapshots.js';

/** The snapshot columns of each re-derived field, and its value as the columns hold it. */
const COLUMNS_OF: Record<ReparsedField, (p: Snapshot) => Record<string, unknown>> = {
  price: (p) => ({ price: p.price?.value ?? null, price_currency: p.price?.currency ?? null }),
  isInStock: (p) => ({ in_stock: p.isInStock ?? null }),
  buyboxSellerId: (p) => ({ buybox_seller_id: p.buyboxSellerId ?? null }),
  rating: (p) => ({ rating: p.rating ?? null }),
  ratingsTotal: (p) => ({ ratings_total: p.ratingsTotal ?? null }),
  bestSellersRank: (p) => ({ best_sellers_rank: p.bestSellersRank ?? null }),
  bestSellersCategory: (p) => ({ best_sellers_category: p.bestSellersCategory ?? null }),
};

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** The points of `page` revised (`none`: no point came from the page). */
export async function revisePoints(tx: Queryable, jobId: string, page: ArchivedPageRow, parser: string, fields: Omit<SnapshotFields, 'retrievedAt'>): Promise<number | 'none'> {
  const rows = await tx.query<SnapshotRow & { product_id: number }>(
    `SELECT product_id, ${SNAPSHOT_COLUMNS} FROM snapshots
     WHERE product_id = (SELECT id FROM products WHERE domain = $1 AND asin = $2) AND retrieved_at = $3 ORDER BY at`,
    [page.domain, page.identifier, page.fetchedAt],
  );
  if (rows.length === 0) return 'none';
  let revised = 0;
  for (const row of rows) {
    const point = snapshotOf(page.domain as DomainCode, page.identifier, row);
    const revisions: FieldRevision[] = reviseFields(point, fields);
    if (revisions.length === 0) continue;
    const after = revisedPoint(point, revisions);
    const columns = Object.assign({}, ...revisions.map((r) => COLUMNS_OF[r.field](after))) as Record<string, unknown>;
    const names = Object.keys(columns);
    await tx.query(
      `UPDATE snapshots SET ${names.map((n, i) => `${n} = $${i + 3}`).join(', ')}, unknown_fields = $${names.length + 3}, suspect_fields = $${names.length + 4}, quality = 'revised'
       WHERE product_id = $1 AND at = $2`,
      [row.product_id, row.at, ...names.map((n) => columns[n]), [...(after.unknownFields ?? [])], [...(after.suspectFields ?? [])]],
    );
    for (const r of revisions) {
      await tx.query(
        `INSERT INTO snapshot_revisions (product_id, at, field, old_value, old_mark, new_value, old_parser, new_parser, page_id, job_id)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
        [row.product_id, row.at, r.field, json(r.oldValue), r.oldMark ?? null, json(r.newValue), parserOfPage(page), parser, page.id, jobId],
      );
    }
    revised += 1;
  }
  return revised;
}
