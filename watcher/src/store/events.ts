/**
 * Events: what happened to a watch, private to its account, in id order (the cursor of the list and
 * of the change stream). Appends are idempotent by (watch, type, dedupe key) and serialised, so that
 * ids become visible in order: a reader resuming after id N never misses an event committed later
 * with a smaller id.
 */
import type { EventType, WatchEvent } from '../model.js';
import { checkedPageSize, idCursor, type Page, pageOf } from './cursor.js';
import { qualified } from './columns.js';
import type { Database } from '@retail/database';
import { isWatchId } from './ids.js';

/** An event to append: the record without its id (assigned on append), plus what makes it unique. */
export type EventDraft = Omit<WatchEvent, 'id'> & {
  /**
   * What makes this event happen once: the snapshot id for condition events (a refresh retried after
   * a crash appends nothing twice), the cause (a job or settlement id) for lifecycle events.
   */
  readonly dedupeKey: string;
};

interface EventRow {
  id: string;
  account_id: string;
  watch_id: string;
  type: EventType;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  at: Date;
}

const EVENT_COLUMNS = 'id, account_id, watch_id, type, before, after, at';

export function eventOf(row: EventRow): WatchEvent {
  return { id: row.id, watchId: row.watch_id, accountId: row.account_id, type: row.type, before: row.before, after: row.after, at: row.at };
}

/** Any constant works: it only has to be the same for every appender of this database. */
const APPEND_LOCK = 0x65766e74; // "evnt"

export function createEventRepository(db: Database) {
  return {
    /**
     * Appends the drafts that are new, in order; returns those it wrote (an already appended draft is
     * not returned again). A draft for a deleted watch is dropped, as the watch's events were.
     */
    async append(drafts: readonly EventDraft[]): Promise<WatchEvent[]> {
      if (drafts.length === 0) return [];
      return db.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock($1)`, [APPEND_LOCK]);
        const rows = await tx.query<EventRow>(
          `INSERT INTO watch_events (account_id, watch_id, type, dedupe_key, before, after, at)
           SELECT d.account_id, d.watch_id, d.type, d.dedupe_key, d.before, d.after, d.at
           FROM jsonb_to_recordset($1::jsonb)
             AS d(ordinal integer, account_id text, watch_id uuid, type text, dedupe_key text, before jsonb, after jsonb, at timestamptz)
           WHERE EXISTS (SELECT 1 FROM watches w WHERE w.id = d.watch_id AND w.account_id = d.account_id)
           ORDER BY d.ordinal
           ON CONFLICT (watch_id, type, dedupe_key) DO NOTHING
           RETURNING ${EVENT_COLUMNS}`,
          [JSON.stringify(drafts.map((d, ordinal) => ({
            ordinal, account_id: d.accountId, watch_id: d.watchId, type: d.type, dedupe_key: d.dedupeKey, before: d.before, after: d.after,
            at: d.at.toISOString(),
          })))],
        );
        return rows.map(eventOf).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      });
    },

    /**
     * The stored events of these drafts (matched by watch, type and dedupe key), appended now or by an
     * earlier attempt: a refresh re-run after a crash finds the events it must still deliver.
     */
    async findAppended(drafts: readonly Pick<EventDraft, 'watchId' | 'type' | 'dedupeKey'>[]): Promise<WatchEvent[]> {
      if (drafts.length === 0) return [];
      const rows = await db.query<EventRow>(
        `SELECT ${qualified(EVENT_COLUMNS, 'e')} FROM watch_events e
         JOIN jsonb_to_recordset($1::jsonb) AS d(watch_id uuid, type text, dedupe_key text)
           ON e.watch_id = d.watch_id AND e.type = d.type AND e.dedupe_key = d.dedupe_key
         ORDER BY e.id`,
        [JSON.stringify(drafts.map((d) => ({ watch_id: d.watchId, type: d.type, dedupe_key: d.dedupeKey })))],
      );
      return rows.map(eventOf);
    },

    /**
     * The id of the account's newest event (of one watch, when given), or null: where a change stream
     * that asked for "events from now on" starts.
     */
    async latestId(accountId: string, watchId?: string): Promise<string | null> {
      if (watchId !== undefined && !isWatchId(watchId)) return null;
      const [row] = await db.query<{ id: string | null }>(
        `SELECT max(id) AS id FROM watch_events WHERE account_id = $1 AND ($2::uuid IS NULL OR watch_id = $2::uuid)`,
        [accountId, watchId ?? null],
      );
      return row?.id ?? null;
    },

    /** The account's events after `cursor` (oldest first), optionally of one watch. */
    async list(accountId: string, page: { watchId?: string; cursor?: string; limit: number }): Promise<Page<WatchEvent>> {
      const limit = checkedPageSize(page.limit);
      const after = idCursor(page.cursor);
      if (page.watchId !== undefined && !isWatchId(page.watchId)) return { items: [], nextCursor: null };
      const rows = await db.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM watch_events
         WHERE account_id = $1 AND ($2::uuid IS NULL OR watch_id = $2::uuid) AND id > coalesce($3::bigint, 0)
         ORDER BY id LIMIT $4`,
        [accountId, page.watchId ?? null, after, limit + 1],
      );
      return pageOf(rows.map(eventOf), limit, (last) => last.id);
    },
  };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
