/**
 * Watches: private to their account. Every read and write is scoped by `account_id`, so another
 * account's watch is simply not found (the gateways answer 404, never 403). The scheduler's reads
 * (`due`, `markRefreshed`, `webhookOf`) are unscoped: they serve every account.
 */
import type { Condition, DomainCode, PausedReason, Watch } from '../model.js';
import type { Clock } from './clock.js';
import { checkedPageSize, decodeTimeIdCursor, encodeTimeIdCursor, type Page, pageOf } from './cursor.js';
import { qualified } from './columns.js';
import type { Queryable } from './database.js';
import { isWatchId } from './ids.js';

export interface WatchDraft {
  readonly accountId: string;
  readonly domain: DomainCode;
  readonly asin: string;
  readonly label?: string;
  readonly intervalSeconds: number;
  readonly conditions: readonly Condition[];
  /** The secret as ciphertext from the webhooks layer; the store never sees it in the clear. */
  readonly webhook?: WebhookTarget;
}

export interface WebhookTarget {
  readonly url: string;
  readonly secretCiphertext: string;
}

/** What an owner may change; absent fields stay as they are, `webhook: null` removes the webhook. */
export interface WatchPatch {
  readonly label?: string | null;
  readonly intervalSeconds?: number;
  readonly conditions?: readonly Condition[];
  readonly webhook?: WebhookTarget | null;
}

/** A product the scheduler should refresh now, with the due watches the refresh serves. */
export interface DueProduct {
  readonly domain: DomainCode;
  readonly asin: string;
  readonly watches: Watch[];
}

interface WatchRow {
  id: string;
  account_id: string;
  domain: DomainCode;
  asin: string;
  label: string | null;
  interval_seconds: number;
  conditions: Condition[];
  webhook_url: string | null;
  status: Watch['status'];
  paused_reason: PausedReason | null;
  created_at: Date;
  last_refresh_at: Date | null;
  next_refresh_at: Date;
}

const WATCH_COLUMNS = `id, account_id, domain, asin, label, interval_seconds, conditions, webhook_url, status, paused_reason,
  created_at, last_refresh_at, next_refresh_at`;

function watchOf(row: WatchRow): Watch {
  return {
    id: row.id,
    accountId: row.account_id,
    domain: row.domain,
    asin: row.asin,
    ...(row.label !== null && { label: row.label }),
    intervalSeconds: row.interval_seconds,
    conditions: row.conditions,
    ...(row.webhook_url !== null && { webhookUrl: row.webhook_url }),
    status: row.status,
    ...(row.paused_reason !== null && { pausedReason: row.paused_reason }),
    createdAt: row.created_at,
    ...(row.last_refresh_at !== null && { lastRefreshAt: row.last_refresh_at }),
    nextRefreshAt: row.next_refresh_at,
  };
}

export function createWatchRepository(db: Queryable, now: Clock) {
  return {
    /** A new watch is due at once: its first snapshot is taken right away. */
    async create(draft: WatchDraft): Promise<Watch> {
      const at = now();
      const [row] = await db.query<WatchRow>(
        `INSERT INTO watches (account_id, domain, asin, label, interval_seconds, conditions, webhook_url, webhook_secret,
           created_at, updated_at, next_refresh_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $9, $9)
         RETURNING ${WATCH_COLUMNS}`,
        [draft.accountId, draft.domain, draft.asin, draft.label ?? null, draft.intervalSeconds, JSON.stringify(draft.conditions),
          draft.webhook?.url ?? null, draft.webhook?.secretCiphertext ?? null, at],
      );
      return watchOf(row!);
    },

    async get(accountId: string, id: string): Promise<Watch | null> {
      if (!isWatchId(id)) return null;
      const [row] = await db.query<WatchRow>(`SELECT ${WATCH_COLUMNS} FROM watches WHERE account_id = $1 AND id = $2`, [accountId, id]);
      return row ? watchOf(row) : null;
    },

    /** The account's watches, oldest first. */
    async list(accountId: string, page: { cursor?: string; limit: number }): Promise<Page<Watch>> {
      const limit = checkedPageSize(page.limit);
      const after = decodeTimeIdCursor(page.cursor);
      if (after && !isWatchId(after.id)) return { items: [], nextCursor: null };
      const rows = await db.query<WatchRow>(
        `SELECT ${WATCH_COLUMNS} FROM watches
         WHERE account_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2, $3::uuid))
         ORDER BY created_at, id LIMIT $4`,
        [accountId, after?.at ?? null, after?.id ?? null, limit + 1],
      );
      return pageOf(rows.map(watchOf), limit, (last) => encodeTimeIdCursor(last.createdAt, last.id));
    },

    /**
     * Applies an owner's changes. A new interval counts from the last refresh (or from now when there
     * was none), so shortening it takes effect at once.
     */
    async update(accountId: string, id: string, patch: WatchPatch): Promise<Watch | null> {
      if (!isWatchId(id)) return null;
      const [row] = await db.query<WatchRow>(
        `UPDATE watches SET
           label = CASE WHEN $3::boolean THEN $4::text ELSE label END,
           interval_seconds = coalesce($5::integer, interval_seconds),
           next_refresh_at = CASE WHEN $5::integer IS NULL THEN next_refresh_at
             ELSE coalesce(last_refresh_at, $10::timestamptz) + make_interval(secs => $5::integer) END,
           conditions = coalesce($6::jsonb, conditions),
           webhook_url = CASE WHEN $7::boolean THEN $8::text ELSE webhook_url END,
           webhook_secret = CASE WHEN $7::boolean THEN $9::text ELSE webhook_secret END,
           updated_at = $10::timestamptz
         WHERE account_id = $1 AND id = $2
         RETURNING ${WATCH_COLUMNS}`,
        [accountId, id, patch.label !== undefined, patch.label ?? null, patch.intervalSeconds ?? null,
          patch.conditions ? JSON.stringify(patch.conditions) : null, patch.webhook !== undefined, patch.webhook?.url ?? null,
          patch.webhook?.secretCiphertext ?? null, now()],
      );
      return row ? watchOf(row) : null;
    },

    /** True when the account's watch existed; its events and deliveries go with it. */
    async delete(accountId: string, id: string): Promise<boolean> {
      if (!isWatchId(id)) return false;
      const rows = await db.query(`DELETE FROM watches WHERE account_id = $1 AND id = $2 RETURNING id`, [accountId, id]);
      return rows.length === 1;
    },

    /**
     * Pauses the account's active watches (all, or those in `ids`) for `reason`; the watches it paused,
     * so the caller appends one WATCH_PAUSED event each.
     */
    async pause(accountId: string, reason: PausedReason, ids?: readonly string[]): Promise<Watch[]> {
      const rows = await db.query<WatchRow>(
        `UPDATE watches SET status = 'PAUSED', paused_reason = $2, updated_at = $4
         WHERE account_id = $1 AND status = 'ACTIVE' AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[]))
         RETURNING ${WATCH_COLUMNS}`,
        [accountId, reason, ids ? ids.filter(isWatchId) : null, now()],
      );
      return rows.map(watchOf);
    },

    /**
     * Resumes the account's watches paused for `reason` (all, or those in `ids`): due at once, as a
     * new watch is. A watch its owner paused stays paused when units come back.
     */
    async resume(accountId: string, reason: PausedReason, ids?: readonly string[]): Promise<Watch[]> {
      const at = now();
      const rows = await db.query<WatchRow>(
        `UPDATE watches SET status = 'ACTIVE', paused_reason = NULL, updated_at = $4, next_refresh_at = $4
         WHERE account_id = $1 AND status = 'PAUSED' AND paused_reason = $2 AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[]))
         RETURNING ${WATCH_COLUMNS}`,
        [accountId, reason, ids ? ids.filter(isWatchId) : null, at],
      );
      return rows.map(watchOf);
    },

    /**
     * The products with an active watch due at `at`, most overdue first (at most `limit` products),
     * each with its due watches: one upstream fetch serves them all.
     */
    async due(at: Date, limit: number): Promise<DueProduct[]> {
      const rows = await db.query<WatchRow>(
        `WITH due AS (
           SELECT domain, asin, min(next_refresh_at) AS due_at FROM watches
           WHERE status = 'ACTIVE' AND next_refresh_at <= $1
           GROUP BY domain, asin ORDER BY due_at, domain, asin LIMIT $2)
         SELECT ${qualified(WATCH_COLUMNS, 'w')} FROM due JOIN watches w USING (domain, asin)
         WHERE w.status = 'ACTIVE' AND w.next_refresh_at <= $1
         ORDER BY due.due_at, w.domain, w.asin, w.id`,
        [at, checkedPageSize(limit)],
      );
      const products: DueProduct[] = [];
      for (const watch of rows.map(watchOf)) {
        const last = products.at(-1);
        if (last && last.domain === watch.domain && last.asin === watch.asin) last.watches.push(watch);
        else products.push({ domain: watch.domain, asin: watch.asin, watches: [watch] });
      }
      return products;
    },

    /** Records a refresh of these watches at `at`: each is next due one interval later. */
    async markRefreshed(ids: readonly string[], at: Date): Promise<void> {
      await db.query(
        `UPDATE watches SET last_refresh_at = $2::timestamptz, next_refresh_at = $2::timestamptz + make_interval(secs => interval_seconds)
         WHERE id = ANY($1::uuid[])`,
        [ids.filter(isWatchId), at],
      );
    },

    /** Where and with which secret (ciphertext) a watch's events are delivered; null without a webhook. */
    async webhookOf(watchId: string): Promise<WebhookTarget | null> {
      if (!isWatchId(watchId)) return null;
      const [row] = await db.query<{ webhook_url: string | null; webhook_secret: string | null }>(
        `SELECT webhook_url, webhook_secret FROM watches WHERE id = $1`,
        [watchId],
      );
      return row?.webhook_url && row.webhook_secret ? { url: row.webhook_url, secretCiphertext: row.webhook_secret } : null;
    },
  };
}

export type WatchRepository = ReturnType<typeof createWatchRepository>;
