/**
 * Re-parsing's records (migration 0006, docs/page-archive.md "Repairing history after a parser
 * fix"): the jobs with their cursor and counts, and each page's corrections, written in one
 * transaction with the cursor's move, so a job resumed after a crash redoes at most the page it was
 * on and never writes a correction twice.
 */
import type { Database, Queryable } from '@retail/database';
import type { DomainCode, Snapshot } from '../model.js';
import { type FieldRevision, type ReparsedField, revisedPoint, reviseFields } from '../reparse/point-revision.js';
import type { SnapshotFields } from '../refresh/snapshot-reader.js';
import { type ArchivedPageRow, parserOfPage } from './archived-pages.js';
import { SNAPSHOT_COLUMNS, snapshotOf, type SnapshotRow } from './snapshots.js';

export type ReparseJobState = 'queued' | 'running' | 'done' | 'failed';

export interface ReparseJobDraft {
  readonly id: string;
  readonly domain: string;
  readonly kind: string;
  readonly since: Date;
  readonly until?: Date;
  readonly force: boolean;
}

export interface ReparseJobRecord extends ReparseJobDraft {
  readonly state: ReparseJobState;
  readonly cursor?: { readonly fetchedAt: Date; readonly id: string };
  readonly counts: {
    /** Archived pages the job walked. */
    readonly pages: number;
    /** Pages read again by the current parser. */
    readonly reparsed: number;
    /** Pages already read by the current parser (skipped unless --force). */
    readonly skipped: number;
    /** Pages the current parser could not read a product from. */
    readonly unreadable: number;
    /** Pages read again that no history point came from (a sampled page, a confirmation read). */
    readonly withoutPoint: number;
    /** History points the job changed. */
    readonly pointsRevised: number;
  };
  /** Corrected fields by name (price: 3). */
  readonly fields: Readonly<Partial<Record<ReparsedField, number>>>;
  readonly error?: string;
  readonly createdAt: Date;
  readonly finishedAt?: Date;
}

/** What the current parser made of one page. */
export type PageOutcome =
  | { readonly kind: 'skipped' }
  | { readonly kind: 'unreadable'; readonly parser: string }
  | { readonly kind: 'read'; readonly parser: string; readonly fields: Omit<SnapshotFields, 'retrievedAt'> };

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

interface JobRow {
  id: string; domain: string; kind: string; since: Date; until: Date | null; force: boolean; state: ReparseJobState;
  cursor_at: Date | null; cursor_id: string | null; pages: number; reparsed: number; skipped: number; unreadable: number;
  without_point: number; points_revised: number; error: string | null; created_at: Date; finished_at: Date | null;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

async function revisePoints(tx: Queryable, jobId: string, page: ArchivedPageRow, parser: string, fields: Omit<SnapshotFields, 'retrievedAt'>): Promise<number | 'none'> {
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

export function createReparseJobRepository(db: Database) {
  async function get(id: string): Promise<ReparseJobRecord | undefined> {
    const [row] = await db.query<JobRow>(`SELECT * FROM reparse_jobs WHERE id = $1`, [id]);
    if (!row) return undefined;
    const fieldRows = await db.query<{ field: ReparsedField; n: number }>(
      `SELECT field, count(*)::int AS n FROM snapshot_revisions WHERE job_id = $1 GROUP BY field ORDER BY field`, [id]);
    return {
      id: row.id, domain: row.domain, kind: row.kind, since: row.since, ...(row.until ? { until: row.until } : {}), force: row.force, state: row.state,
      ...(row.cursor_at && row.cursor_id ? { cursor: { fetchedAt: row.cursor_at, id: row.cursor_id } } : {}),
      counts: { pages: row.pages, reparsed: row.reparsed, skipped: row.skipped, unreadable: row.unreadable, withoutPoint: row.without_point, pointsRevised: row.points_revised },
      fields: Object.fromEntries(fieldRows.map((r) => [r.field, r.n])),
      ...(row.error ? { error: row.error } : {}),
      createdAt: row.created_at,
      ...(row.finished_at ? { finishedAt: row.finished_at } : {}),
    };
  }

  return {
    async create(draft: ReparseJobDraft): Promise<void> {
      await db.query(`INSERT INTO reparse_jobs (id, domain, kind, since, until, force) VALUES ($1, $2, $3, $4, $5, $6)`,
        [draft.id, draft.domain, draft.kind, draft.since, draft.until ?? null, draft.force]);
    },

    get,

    async setState(id: string, state: ReparseJobState, error?: string): Promise<void> {
      await db.query(
        `UPDATE reparse_jobs SET state = $2, error = $3, finished_at = CASE WHEN $2 IN ('done', 'failed') THEN now() ELSE NULL END WHERE id = $1`,
        [id, state, error ?? null]);
    },

    /**
     * Records what the current parser made of `page`: the corrected points with their audit rows,
     * the page's re-read mark, the job's counts and its cursor past the page, all in one transaction.
     */
    async applyPage(jobId: string, page: ArchivedPageRow, outcome: PageOutcome): Promise<void> {
      await db.transaction(async (tx) => {
        let counts = { reparsed: 0, skipped: 0, unreadable: 0, without_point: 0, points_revised: 0 };
        if (outcome.kind === 'skipped') counts = { ...counts, skipped: 1 };
        else {
          const revised = outcome.kind === 'read' ? await revisePoints(tx, jobId, page, outcome.parser, outcome.fields) : 0;
          counts = {
            ...counts,
            reparsed: 1,
            unreadable: outcome.kind === 'unreadable' ? 1 : 0,
            without_point: revised === 'none' ? 1 : 0,
            points_revised: revised === 'none' ? 0 : revised,
          };
          await tx.query(`UPDATE archived_pages SET reparsed_with = $3, reparsed_at = now() WHERE id = $1 AND fetched_at = $2`, [page.id, page.fetchedAt, outcome.parser]);
        }
        await tx.query(
          `UPDATE reparse_jobs SET cursor_at = $2, cursor_id = $3, pages = pages + 1, reparsed = reparsed + $4, skipped = skipped + $5,
             unreadable = unreadable + $6, without_point = without_point + $7, points_revised = points_revised + $8 WHERE id = $1`,
          [jobId, page.fetchedAt, page.id, counts.reparsed, counts.skipped, counts.unreadable, counts.without_point, counts.points_revised]);
      });
    },

    /** The corrections of a job, oldest point first (the audit trail). */
    async revisions(jobId: string) {
      return db.query<{ productId: number; at: Date; field: ReparsedField; oldValue: unknown; oldMark: string | null; newValue: unknown; oldParser: string; newParser: string }>(
        `SELECT product_id AS "productId", at, field, old_value AS "oldValue", old_mark AS "oldMark", new_value AS "newValue", old_parser AS "oldParser", new_parser AS "newParser"
         FROM snapshot_revisions WHERE job_id = $1 ORDER BY at, field`, [jobId]);
    },
  };
}

export type ReparseJobRepository = ReturnType<typeof createReparseJobRepository>;
