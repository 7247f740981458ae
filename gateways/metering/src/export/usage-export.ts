/**
 * The export of the usage log to a billing system: each run takes the destination's lease, sends the
 * rows after the cursor as CloudEvents batches, and moves the cursor only when the receiver answered
 * 2xx. Each event goes out under one id forever (usage-events.ts), and a batch that failed is sent again
 * with the same events and the same batch id, so a receiver that de-duplicates on either keeps every
 * charged call exactly once; one that was down gets everything from the cursor on when it is back.
 *
 * What runs it is the caller's: the watcher runs one run per tick of a BullMQ schedule on every replica
 * (watcher/src/billing-export). The back-off between failed sends is state here, in PostgreSQL
 * (`retry_at`), rather than BullMQ's retry delays: the export is one stream with one position, not a set
 * of independent jobs, and every replica's next tick must see the same wait.
 *
 * One exporter at a time is a lease row (ledger_usage_exports.lease_*), not a session advisory lock: a
 * session lock would hold a connection through each HTTP send, and the one-process stack's PGlite has a
 * single connection that every other query would then wait behind.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '@retail/database/database';
import { advanceCursor, fixBatch, pendingRows, readExportState, readRows, recordFailure, releaseLease, startAtLogEnd, takeLease, type ExportState } from './export-cursor.js';
import { CLOUDEVENTS_BATCH_CONTENT_TYPE, usageBatchId, usageCloudEvent, type UsageEventAttributes } from './usage-events.js';

/** One request to the receiver: the batch id (Standard Webhooks `webhook-id`), the media type, the JSON body. */
export interface UsageBatch {
  readonly id: string;
  readonly contentType: string;
  readonly body: string;
  readonly events: number;
}

/** What the receiver made of a batch: delivered means 2xx. */
export interface UsageBatchOutcome {
  readonly delivered: boolean;
  readonly error?: string;
}

export interface UsageExportOptions {
  readonly db: Queryable;
  readonly send: (batch: UsageBatch) => Promise<UsageBatchOutcome>;
  readonly attributes: UsageEventAttributes;
  /** Events per request (default 100). */
  readonly batchSize?: number;
  /** Batches one run sends at most before it yields to the next tick (default 1000: a run normally catches up). */
  readonly maxBatchesPerRun?: number;
  /** The cursor's name: one per destination (default `billing`). */
  readonly destination?: string;
  /** Back-off after consecutive failures: first wait, doubling up to the longest (defaults 5 s and 10 min). */
  readonly retryFirstMs?: number;
  readonly retryMaxMs?: number;
  /** How long a run may hold the destination without renewing it; longer than one send (default 2 min). */
  readonly leaseMs?: number;
  /**
   * Where an export with no cursor yet begins (default `beginning`): the log's first row, or (`now`) its
   * end at the first run, skipping every row committed before. Once the cursor exists this changes nothing.
   */
  readonly start?: UsageExportStart;
  readonly log?: (line: string) => void;
}

/** Where an export with no cursor yet begins; declared once, read by the operator's setting. */
export const USAGE_EXPORT_STARTS = ['beginning', 'now'] as const;
export type UsageExportStart = (typeof USAGE_EXPORT_STARTS)[number];

export type UsageExportRun =
  | { readonly result: 'busy' }
  | { readonly result: 'waiting'; readonly retryAt: number }
  | { readonly result: 'exported' | 'failed'; readonly events: number; readonly batches: number; readonly error?: string };

/** What the metrics and the logs report. */
export interface UsageExportStatus {
  readonly exported: number;
  /** Rows not exported yet, counted up to 100 000. */
  readonly pending: number;
  /** Seconds since the oldest row not exported yet was settled; 0 when none waits. */
  readonly lagSeconds: number;
  readonly failures: number;
  readonly lastSuccessAt?: number;
  readonly lastError?: string;
  /** Whether the export has a position (a cursor or a batch in flight): from then on the start setting changes nothing. */
  readonly positioned: boolean;
}

export interface UsageExport {
  runOnce(): Promise<UsageExportRun>;
  status(): Promise<UsageExportStatus>;
}

export const DEFAULT_EXPORT_BATCH_SIZE = 100;
const PENDING_COUNT_CAP = 100_000;

export function createUsageExport(options: UsageExportOptions): UsageExport {
  const { db, send, attributes } = options;
  const destination = options.destination ?? 'billing';
  const batchSize = options.batchSize ?? DEFAULT_EXPORT_BATCH_SIZE;
  const maxBatches = options.maxBatchesPerRun ?? 1_000;
  const retryFirstMs = options.retryFirstMs ?? 5_000;
  const retryMaxMs = options.retryMaxMs ?? 600_000;
  const leaseMs = options.leaseMs ?? 120_000;
  const log = options.log ?? (() => undefined);
  // One owner per exporter instance: a restarted process is a new owner and waits out a lease it left.
  const owner = `exporter-${randomUUID()}`;

  const backoffMs = (failures: number) => Math.min(retryMaxMs, retryFirstMs * 2 ** Math.min(failures, 30));

  async function exportBatches(state: ExportState): Promise<UsageExportRun> {
    let after = state.after;
    let inFlight = state.batch;
    let events = 0;
    let batches = 0;
    while (batches < maxBatches) {
      const rows = inFlight ? await readRows(db, after, inFlight.events, inFlight) : await readRows(db, after, batchSize);
      if (rows.length === 0) break;
      const end = rows[rows.length - 1]!.position;
      if (!inFlight && !(await fixBatch(db, destination, owner, end, rows.length, leaseMs))) return { result: 'busy' };
      const cloudEvents = rows.map((row) => usageCloudEvent(row, attributes));
      const batch: UsageBatch = { id: usageBatchId(cloudEvents), contentType: CLOUDEVENTS_BATCH_CONTENT_TYPE, body: JSON.stringify(cloudEvents), events: rows.length };
      const outcome = await send(batch).catch((error: unknown): UsageBatchOutcome => ({ delivered: false, error: (error as Error).message }));
      if (!outcome.delivered) {
        const error = outcome.error ?? 'not delivered';
        const waitMs = backoffMs(state.failures);
        await recordFailure(db, destination, owner, error, waitMs);
        log(`usage export: batch ${batch.id} (${rows.length} events) not delivered (${error}); ${state.failures + 1} failure(s) in a row, next try in ${Math.round(waitMs / 1000)} s`);
        return { result: 'failed', events, batches, error };
      }
      if (!(await advanceCursor(db, destination, owner, leaseMs))) return { result: 'busy' };
      if (state.failures > 0) log(`usage export: delivered again after ${state.failures} failed attempt(s)`);
      state = { ...state, failures: 0 };
      after = end;
      inFlight = undefined;
      events += rows.length;
      batches++;
    }
    return { result: 'exported', events, batches };
  }

  return {
    async runOnce() {
      let state = await takeLease(db, destination, owner, leaseMs);
      if (!state) return { result: 'busy' };
      try {
        if (state.waiting) return { result: 'waiting', retryAt: state.retryAt! };
        if (options.start === 'now' && !state.after && !state.batch) {
          state = await startAtLogEnd(db, destination, owner);
          if (!state) return { result: 'busy' };
          log(`usage export: no cursor yet, start "now": the export begins at the usage log's current end (transaction ${state.after!.xid}); rows committed before are not exported`);
        }
        return await exportBatches(state);
      } finally {
        await releaseLease(db, destination, owner).catch(() => undefined);
      }
    },
    async status() {
      const state = await readExportState(db, destination);
      const pending = await pendingRows(db, state?.after, PENDING_COUNT_CAP);
      return {
        exported: state?.exported ?? 0,
        pending: pending.rows,
        lagSeconds: pending.oldest === undefined ? 0 : Math.max(0, (Date.now() - pending.oldest) / 1000),
        failures: state?.failures ?? 0,
        positioned: state?.after !== undefined || state?.batch !== undefined,
        ...(state?.lastSuccessAt !== undefined && { lastSuccessAt: state.lastSuccessAt }),
        ...(state?.lastError !== undefined && { lastError: state.lastError }),
      };
    },
  };
}
