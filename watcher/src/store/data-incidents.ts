/**
 * Data incidents as the watcher keeps them (docs/data-health.md): each change the core's replicas
 * decided, read from the core's log, stored once (a change read twice is the same row), with the
 * operator webhook's delivery state, and how far the log has been read.
 */
import type { Clock } from './clock.js';
import type { Database } from '@retail/database';

export type IncidentStateName = 'healthy' | 'degraded' | 'major';

/** A change as the core's log gives it. */
export interface IncidentChangeDraft {
  readonly marketplace: string;
  readonly kind: string;
  readonly from: IncidentStateName;
  readonly to: IncidentStateName;
  readonly fields: readonly string[];
  readonly at: Date;
  readonly coreSeq: number;
}

export interface IncidentChange extends IncidentChangeDraft {
  readonly id: string;
  readonly recordedAt: Date;
  readonly webhookStatus: 'PENDING' | 'DELIVERED' | 'FAILED' | 'DEAD' | null;
}

interface ChangeRow {
  id: string;
  marketplace: string;
  kind: string;
  from_state: IncidentStateName;
  to_state: IncidentStateName;
  fields: string[];
  at: Date;
  core_seq: string;
  recorded_at: Date;
  webhook_status: IncidentChange['webhookStatus'];
}

const COLUMNS = 'id, marketplace, kind, from_state, to_state, fields, at, core_seq, recorded_at, webhook_status';

const changeOf = (row: ChangeRow): IncidentChange => ({
  id: String(row.id),
  marketplace: row.marketplace,
  kind: row.kind,
  from: row.from_state,
  to: row.to_state,
  fields: row.fields,
  at: new Date(row.at),
  coreSeq: Number(row.core_seq),
  recordedAt: new Date(row.recorded_at),
  webhookStatus: row.webhook_status,
});

export function createDataIncidentRepository(db: Database, now: Clock) {
  return {
    /** The last position of the core's log read (0 before the first read). */
    async logPosition(): Promise<number> {
      const [row] = await db.query<{ core_seq: string }>('SELECT core_seq FROM data_incident_log_position');
      return row ? Number(row.core_seq) : 0;
    },

    /**
     * Stores the changes not stored yet and moves the log position to `position`, in one
     * transaction; returns the changes it stored (each needs its announcement). With `webhook` the
     * new rows wait for the operator webhook (PENDING).
     */
    async record(changes: readonly IncidentChangeDraft[], position: number, webhook: boolean): Promise<IncidentChange[]> {
      return db.transaction(async (tx) => {
        const stored: IncidentChange[] = [];
        for (const c of changes) {
          const [row] = await tx.query<ChangeRow>(
            `INSERT INTO data_incident_changes (marketplace, kind, from_state, to_state, fields, at, core_seq, recorded_at, webhook_status)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (marketplace, kind, at, to_state) DO NOTHING RETURNING ${COLUMNS}`,
            [c.marketplace, c.kind, c.from, c.to, [...c.fields], c.at, c.coreSeq, now(), webhook ? 'PENDING' : null],
          );
          if (row) stored.push(changeOf(row));
        }
        await tx.query(
          `INSERT INTO data_incident_log_position (singleton, core_seq) VALUES (true, $1) ON CONFLICT (singleton) DO UPDATE SET core_seq = EXCLUDED.core_seq`,
          [position],
        );
        return stored;
      });
    },

    async byId(id: string): Promise<IncidentChange | null> {
      const [row] = await db.query<ChangeRow>(`SELECT ${COLUMNS} FROM data_incident_changes WHERE id = $1`, [id]);
      return row ? changeOf(row) : null;
    },

    /** The changes since `from`, newest first (the status page's last 30 days). */
    async since(from: Date, limit = 500): Promise<IncidentChange[]> {
      const rows = await db.query<ChangeRow>(`SELECT ${COLUMNS} FROM data_incident_changes WHERE at >= $1 ORDER BY at DESC, id DESC LIMIT $2`, [from, limit]);
      return rows.map(changeOf);
    },

    /** Records one attempt of the operator webhook while it is still open; false when it was not. */
    async recordWebhookAttempt(id: string, attempt: { status: 'DELIVERED' | 'FAILED' | 'DEAD'; error?: string }): Promise<boolean> {
      const rows = await db.query(
        `UPDATE data_incident_changes SET webhook_status = $2, webhook_attempts = webhook_attempts + 1, webhook_last_error = $3
         WHERE id = $1 AND webhook_status IN ('PENDING', 'FAILED') RETURNING id`,
        [id, attempt.status, attempt.error ?? null],
      );
      return rows.length > 0;
    },

    /** Changes whose operator webhook is still open (queued again at worker start). */
    async openWebhooks(): Promise<string[]> {
      const rows = await db.query<{ id: string }>(`SELECT id FROM data_incident_changes WHERE webhook_status IN ('PENDING', 'FAILED') ORDER BY id`);
      return rows.map((r) => String(r.id));
    },
  };
}

export type DataIncidentRepository = ReturnType<typeof createDataIncidentRepository>;
