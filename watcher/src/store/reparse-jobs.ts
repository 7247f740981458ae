/**
 * Re-parsing's records (migrations 0006 and 0007, docs/page-archive.md "Repairing history after a
 * parser fix"): the jobs with their cursor and counts, and each page's corrections, written in one
 * transaction with the cursor's move, so a job resumed after a crash redoes at most the pages it
 * had in hand and never writes a correction twice.
 *
 * Two guards live in PostgreSQL, so no replica or CLI can get round them: at most one queued or
 * running job per marketplace and kind (a partial unique index: `create` refuses the second), and a
 * page's corrections are written only by the run that holds the job's cursor where it expects it
 * (`applyPage`: a run of a job cancelled, or moved on by another run, writes nothing).
 */
import type { Database } from '@retail/database';
import type { ReparsedField } from '../reparse/point-revision.js';
import type { SnapshotFields } from '../refresh/snapshot-reader.js';
import type { ArchivedPageRow } from './archived-pages.js';
import { revisePoints } from './snapshot-revisions.js';

export type ReparseJobState = 'queued' | 'running' | 'done' | 'failed';

export interface ReparseJobDraft {
  readonly id: string;
  readonly domain: string;
  readonly kind: string;
  readonly since: Date;
  readonly until?: Date;
  readonly force: boolean;
}

/** The last page a job applied, in the walk's order (fetched_at, id). */
export interface ReparseCursor {
  readonly fetchedAt: Date;
  readonly id: string;
}

/** What `create` did: queued the job, or refused it for the job already active over the same marketplace and kind. */
export type ReparseJobCreation = { readonly created: true } | { readonly created: false; readonly active?: ReparseJobRecord };

export interface ReparseJobRecord extends ReparseJobDraft {
  readonly state: ReparseJobState;
  readonly cursor?: ReparseCursor;
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

interface JobRow {
  id: string; domain: string; kind: string; since: Date; until: Date | null; force: boolean; state: ReparseJobState;
  cursor_at: Date | null; cursor_id: string | null; pages: number; reparsed: number; skipped: number; unreadable: number;
  without_point: number; points_revised: number; error: string | null; created_at: Date; finished_at: Date | null;
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
    /**
     * Queues a job unless one over the same marketplace and kind is queued or running (the partial
     * unique index of migration 0007 decides, so two concurrent creations cannot both pass).
     */
    async create(draft: ReparseJobDraft): Promise<ReparseJobCreation> {
      const inserted = await db.query(
        `INSERT INTO reparse_jobs (id, domain, kind, since, until, force) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (domain, kind) WHERE state IN ('queued', 'running') DO NOTHING RETURNING id`,
        [draft.id, draft.domain, draft.kind, draft.since, draft.until ?? null, draft.force]);
      if (inserted.length > 0) return { created: true };
      // The active one (it may have ended since: then there is none to name, and a retry passes).
      const [active] = await db.query<{ id: string }>(
        `SELECT id FROM reparse_jobs WHERE domain = $1 AND kind = $2 AND state IN ('queued', 'running')`, [draft.domain, draft.kind]);
      const record = active ? await get(active.id) : undefined;
      return { created: false, ...(record ? { active: record } : {}) };
    },

    get,

    /** Ends a queued or running job as failed, saying why; false when it was not active. Its run stops at its next page. */
    async cancel(id: string, reason: string): Promise<boolean> {
      const rows = await db.query(
        `UPDATE reparse_jobs SET state = 'failed', error = $2, finished_at = now() WHERE id = $1 AND state IN ('queued', 'running') RETURNING id`, [id, reason]);
      return rows.length > 0;
    },

    /**
     * Moves an active job on: `running` when a run takes it, `done` or `failed` when it ends. A job
     * that already ended (done, or cancelled meanwhile) stays as it is: false.
     */
    async setState(id: string, state: Exclude<ReparseJobState, 'queued'>, error?: string): Promise<boolean> {
      const rows = await db.query(
        `UPDATE reparse_jobs SET state = $2, error = $3, finished_at = CASE WHEN $2 IN ('done', 'failed') THEN now() ELSE NULL END
         WHERE id = $1 AND state IN ('queued', 'running') RETURNING id`,
        [id, state, error ?? null]);
      return rows.length > 0;
    },

    /**
     * Records what the current parser made of `page`: the corrected points with their audit rows,
     * the page's re-read mark, the job's counts and its cursor past the page, all in one transaction.
     * `from` is where the run found the cursor (the page before, or none at the walk's start): when
     * the job is no longer running (cancelled) or its cursor is on another page (page ids are unique) (another run of it moved
     * on), nothing is written and the answer is false: the run stops. The fence is the first
     * statement, so its row lock orders two such transactions before either touches a point.
     */
    async applyPage(jobId: string, from: ReparseCursor | undefined, page: ArchivedPageRow, outcome: PageOutcome): Promise<boolean> {
      return db.transaction(async (tx) => {
        const fenced = await tx.query(
          `UPDATE reparse_jobs SET cursor_at = $2, cursor_id = $3
           WHERE id = $1 AND state = 'running' AND cursor_id IS NOT DISTINCT FROM $4::uuid RETURNING id`,
          [jobId, page.fetchedAt, page.id, from?.id ?? null]);
        if (fenced.length === 0) return false;
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
          `UPDATE reparse_jobs SET pages = pages + 1, reparsed = reparsed + $2, skipped = skipped + $3,
             unreadable = unreadable + $4, without_point = without_point + $5, points_revised = points_revised + $6 WHERE id = $1`,
          [jobId, counts.reparsed, counts.skipped, counts.unreadable, counts.without_point, counts.points_revised]);
        return true;
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
