/**
 * The watcher's data-incident queues (docs/data-health.md), declared once for producers and workers:
 * the read of the core's incident log, a repeating job that one replica runs at a time (never a
 * timer loop), and the operator webhook, one job per stored change (id `incident-<row id>`).
 */
import { defineQueue } from '../queue/index.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../webhooks/index.js';

export type IncidentLogJob = Record<string, never>;

export interface OperatorWebhookJob {
  /** The data_incident_changes row. */
  readonly changeId: string;
}

/** A failed read is simply done again by the next run; no retries of its own. */
export const INCIDENT_LOG_QUEUE = defineQueue<IncidentLogJob>('data-incident-log');
export const OPERATOR_WEBHOOK_QUEUE = defineQueue<OperatorWebhookJob>('operator-webhook', { retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS });

/** Every 5 s: an incident reaches the operator within seconds of its decision. */
export const INCIDENT_LOG_SCHEDULE = { id: 'data-incident-log', everyMs: 5_000 } as const;

export const operatorWebhookJobId = (changeId: string) => `incident-${changeId}`;
