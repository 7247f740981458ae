/**
 * Webhook deliveries: one row per event and endpoint, with its attempts counted. The webhooks layer
 * sends and retries (BullMQ schedules the back-off); this is its record, listed per watch for the
 * owner and reopened for a redelivery.
 */
import type { WatchEvent } from '../model.js';
import type { Clock } from './clock.js';
import { checkedPageSize, idCursor, type Page, pageOf } from './cursor.js';
import { qualified } from './columns.js';
import type { Queryable } from '@retail/database';
import { eventOf } from './events.js';
import { isRowId, isWatchId } from './ids.js';
import { recordOfRow } from './row-record.js';

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'DEAD';

/** One delivery's row (the webhooks layer's `WebhookDelivery` is what one attempt sends). */
export interface DeliveryRecord {
  readonly id: string;
  readonly eventId: string;
  readonly watchId: string;
  readonly accountId: string;
  readonly url: string;
  readonly attemptCount: number;
  readonly status: DeliveryStatus;
  readonly lastResponseStatus?: number;
  readonly lastError?: string;
  readonly nextAttemptAt?: Date;
  readonly deliveredAt?: Date;
  readonly createdAt: Date;
}

export interface DeliveryDraft {
  readonly eventId: string;
  readonly watchId: string;
  readonly accountId: string;
  readonly url: string;
}

/** How one attempt ended: a 2xx, a failure to retry at `nextAttemptAt`, or the last failure. */
export type AttemptOutcome =
  | { readonly status: 'DELIVERED'; readonly responseStatus: number }
  | { readonly status: 'FAILED'; readonly responseStatus?: number; readonly error: string; readonly nextAttemptAt: Date }
  | { readonly status: 'DEAD'; readonly responseStatus?: number; readonly error: string };

/** A delivery with the event it carries: what an attempt sends. */
export interface DeliveryWork {
  readonly delivery: DeliveryRecord;
  readonly event: WatchEvent;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  watch_id: string;
  account_id: string;
  url: string;
  attempt_count: number;
  status: DeliveryStatus;
  last_response_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

const DELIVERY_COLUMNS = `id, event_id, watch_id, account_id, url, attempt_count, status, last_response_status, last_error,
  next_attempt_at, delivered_at, created_at`;

const deliveryOf = (row: DeliveryRow): DeliveryRecord => recordOfRow(row);

/** The delivery and its event in one row: the event's columns carry an `event_` prefix. */
const WORK_SELECT = `SELECT ${qualified(DELIVERY_COLUMNS, 'd')},
  e.account_id AS event_account_id, e.watch_id AS event_watch_id, e.type AS event_type, e.before AS event_before,
  e.after AS event_after, e.at AS event_at
  FROM webhook_deliveries d JOIN watch_events e ON e.id = d.event_id`;

type WorkRow = DeliveryRow & { event_account_id: string; event_watch_id: string; event_type: WatchEvent['type']; event_before: WatchEvent['before']; event_after: WatchEvent['after']; event_at: Date };

function workOf({ event_account_id, event_watch_id, event_type, event_before, event_after, event_at, ...delivery }: WorkRow): DeliveryWork {
  return {
    delivery: deliveryOf(delivery),
    event: eventOf({ id: delivery.event_id, account_id: event_account_id, watch_id: event_watch_id, type: event_type, before: event_before, after: event_after, at: event_at }),
  };
}

export function createDeliveryRepository(db: Queryable, now: Clock) {
  return {
    /** A pending delivery, due now; creating it again (a retried refresh) returns the first one. */
    async create(draft: DeliveryDraft): Promise<DeliveryRecord> {
      const at = now();
      const [row] = await db.query<DeliveryRow>(
        `WITH inserted AS (
           INSERT INTO webhook_deliveries (event_id, watch_id, account_id, url, next_attempt_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $5)
           ON CONFLICT (event_id, url) DO NOTHING RETURNING ${DELIVERY_COLUMNS})
         SELECT ${DELIVERY_COLUMNS} FROM inserted
         UNION ALL SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE event_id = $1 AND url = $4`,
        [draft.eventId, draft.watchId, draft.accountId, draft.url, at],
      );
      return deliveryOf(row!);
    },

    /**
     * Counts one attempt and records how it ended. Only an open delivery (PENDING or FAILED) takes
     * an attempt: null when it is delivered, dead or gone (watch deleted), so a job re-run after a
     * crash cannot turn a delivered webhook back into a failure. A redelivery reopens it first.
     */
    async recordAttempt(id: string, outcome: AttemptOutcome): Promise<DeliveryRecord | null> {
      if (!isRowId(id)) return null;
      const at = now();
      const [row] = await db.query<DeliveryRow>(
        `UPDATE webhook_deliveries SET
           attempt_count = attempt_count + 1,
           status = $2,
           last_response_status = $3,
           last_error = $4,
           next_attempt_at = $5,
           delivered_at = CASE WHEN $2 = 'DELIVERED' THEN $6::timestamptz ELSE delivered_at END
         WHERE id = $1 AND status IN ('PENDING', 'FAILED')
         RETURNING ${DELIVERY_COLUMNS}`,
        [id, outcome.status, outcome.responseStatus ?? null, 'error' in outcome ? outcome.error : null,
          outcome.status === 'FAILED' ? outcome.nextAttemptAt : null, at],
      );
      return row ? deliveryOf(row) : null;
    },

    /**
     * True when an earlier delivery of the same watch to the same URL is still open (PENDING or
     * FAILED): the webhook worker holds this one back so that a receiver gets a watch's events in order.
     */
    async hasEarlierOpen(id: string): Promise<boolean> {
      if (!isRowId(id)) return false;
      const [row] = await db.query<{ waiting: boolean }>(
        `SELECT EXISTS (
           SELECT 1 FROM webhook_deliveries d JOIN webhook_deliveries earlier
             ON earlier.watch_id = d.watch_id AND earlier.url = d.url AND earlier.id < d.id
           WHERE d.id = $1 AND earlier.status IN ('PENDING', 'FAILED')) AS waiting`,
        [id],
      );
      return row?.waiting ?? false;
    },

    /** What an attempt sends (the worker's read, by id from its job); null when gone. */
    async work(id: string): Promise<DeliveryWork | null> {
      if (!isRowId(id)) return null;
      const [row] = await db.query<WorkRow>(`${WORK_SELECT} WHERE d.id = $1`, [id]);
      return row ? workOf(row) : null;
    },

    /** The deliveries of one of the account's watches, newest first. */
    async listForWatch(accountId: string, watchId: string, page: { cursor?: string; limit: number }): Promise<Page<DeliveryRecord>> {
      const limit = checkedPageSize(page.limit);
      const before = idCursor(page.cursor);
      if (!isWatchId(watchId)) return { items: [], nextCursor: null };
      const rows = await db.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
         WHERE account_id = $1 AND watch_id = $2 AND ($3::bigint IS NULL OR id < $3::bigint)
         ORDER BY id DESC LIMIT $4`,
        [accountId, watchId, before, limit + 1],
      );
      return pageOf(rows.map(deliveryOf), limit, (last) => last.id);
    },

    /**
     * The owner asks for a delivery again: it becomes pending and due now (its attempts so far stay
     * counted) and comes back with its event for the webhooks layer to enqueue. Null when it is not
     * the account's (or, with `watchId`, not that watch's).
     */
    async reopen(accountId: string, id: string, watchId?: string): Promise<DeliveryWork | null> {
      if (!isRowId(id) || (watchId !== undefined && !isWatchId(watchId))) return null;
      const reopened = await db.query<{ id: string }>(
        `UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = $3
         WHERE account_id = $1 AND id = $2 AND ($4::uuid IS NULL OR watch_id = $4::uuid) RETURNING id`,
        [accountId, id, now(), watchId ?? null],
      );
      if (reopened.length === 0) return null;
      const [row] = await db.query<WorkRow>(`${WORK_SELECT} WHERE d.id = $1`, [id]);
      return row ? workOf(row) : null;
    },
  };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
