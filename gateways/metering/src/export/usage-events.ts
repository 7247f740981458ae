/**
 * The usage log as CloudEvents 1.0 (JSON format), the format usage-billing systems ingest: one event per
 * charged call (a ledger_usage row), sent in batches as `application/cloudevents-batch+json`.
 *
 * Field choices follow what the usual receivers map without a transform (docs/metering.md, "Exporting
 * usage to a billing system"): OpenMeter matches `type` to a meter, aggregates by `subject` and reads
 * values from `data` by JSONPath, and drops a repeated `source` + `id`; Lago, Orb and Metronome take the
 * id as their idempotency key (`transaction_id`, `idempotency_key`), the subject as the customer and the
 * data as the event's properties. So: `subject` is the account (the customer a bill goes to), the key is
 * a property, and every value a meter could sum (`units`, `calls`) is a number in `data`.
 */
import { createHash } from 'node:crypto';

/** The events' media type in one request body (CloudEvents JSON format, batched mode). */
export const CLOUDEVENTS_BATCH_CONTENT_TYPE = 'application/cloudevents-batch+json';

/** Defaults of the event attributes an operator may set (BILLING_EXPORT_SOURCE, BILLING_EXPORT_EVENT_TYPE). */
export const DEFAULT_USAGE_EVENT_SOURCE = 'retail-data';
export const DEFAULT_USAGE_EVENT_TYPE = 'io.retaildata.usage.v1';

/** One row of the usage log, as the exporter reads it. */
export interface ExportedUsageRow {
  readonly accountId: string;
  readonly holdId: string;
  /** '' for background work (watch refreshes, bulk jobs). */
  readonly keyId: string;
  readonly iface: string;
  readonly operations: readonly string[];
  readonly units: number;
  readonly settledAt: Date;
}

export interface UsageEventData {
  readonly accountId: string;
  /** The API key the call was made with; null for background work (watches, bulk jobs). */
  readonly keyId: string | null;
  /** The operation charged; `mixed` when one call charged several different ones (a batch). */
  readonly operation: string;
  /** Every operation charged, one per unit, in order. */
  readonly operations: readonly string[];
  /** rest, graphql, mcp, or the background work (watches, jobs). */
  readonly interface: string;
  readonly units: number;
  /** Always 1: one event is one charged call, so a meter can count calls by summing this. */
  readonly calls: number;
  /** The ledger's hold id: with the account, what a dispute is traced by. */
  readonly holdId: string;
}

export interface UsageCloudEvent {
  readonly specversion: '1.0';
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly subject: string;
  readonly time: string;
  readonly datacontenttype: 'application/json';
  readonly data: UsageEventData;
}

export interface UsageEventAttributes {
  readonly source: string;
  readonly type: string;
}

/**
 * The event id of a usage row: the row's own key (account, hold id), so one charged call has exactly one
 * id on every read, every retry and every replica. Hold ids never contain '/' (meter.ts, HOLD_ID).
 */
export function usageEventId(row: Pick<ExportedUsageRow, 'accountId' | 'holdId'>): string {
  return `${row.accountId}/${row.holdId}`;
}

export function usageCloudEvent(row: ExportedUsageRow, attributes: UsageEventAttributes): UsageCloudEvent {
  const distinct = new Set(row.operations);
  return {
    specversion: '1.0',
    id: usageEventId(row),
    source: attributes.source,
    type: attributes.type,
    subject: row.accountId,
    time: row.settledAt.toISOString(),
    datacontenttype: 'application/json',
    data: {
      accountId: row.accountId,
      keyId: row.keyId === '' ? null : row.keyId,
      operation: distinct.size === 1 ? row.operations[0]! : 'mixed',
      operations: [...row.operations],
      interface: row.iface,
      units: row.units,
      calls: 1,
      holdId: row.holdId,
    },
  };
}

/**
 * The Standard Webhooks message id of a batch: derived from the events it carries, so a retry of the same
 * batch (after a failed send, a crash, on another replica) carries the same webhook-id and a receiver
 * that de-duplicates on it keeps the batch once.
 */
export function usageBatchId(events: readonly Pick<UsageCloudEvent, 'id'>[]): string {
  const digest = createHash('sha256');
  for (const event of events) digest.update(event.id).update('\n');
  return `usage_${events.length}_${digest.digest('base64url').slice(0, 32)}`;
}
