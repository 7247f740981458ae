/**
 * The operator's billing export (docs/metering.md, "Exporting usage to a billing system"), read once from
 * the environment. Off unless BILLING_EXPORT_URL is set.
 *
 * - BILLING_EXPORT_URL: the receiver (a billing system's ingestion endpoint or a relay). Checked as every
 *   webhook URL is (https, port 443 or ≥ 1024, no private address or internal name unless
 *   WEBHOOK_ALLOW_PRIVATE_TARGETS), at start: a bad one stops the process with one line.
 * - BILLING_EXPORT_SECRET: the `whsec_…` Standard Webhooks secret the batches are signed with; required.
 * - BILLING_EXPORT_AUTHORIZATION: the whole value of an `Authorization` header sent with every batch
 *   (`Bearer <api key>`), for an ingestion API that authenticates its callers (OpenMeter Cloud).
 * - BILLING_EXPORT_BATCH_SIZE: events per request (1 to 1000, default 100).
 * - BILLING_EXPORT_INTERVAL_MS: how often the export runs (100 to 3 600 000, default 10 000).
 * - BILLING_EXPORT_RETRY_MAX_MS: the longest wait between failed sends (1000 to 86 400 000, default 600 000).
 * - BILLING_EXPORT_SOURCE, BILLING_EXPORT_EVENT_TYPE: the events' CloudEvents `source` and `type`.
 * - BILLING_EXPORT_START: where an export with no cursor yet begins: `beginning` (default, the whole
 *   log) or `now` (the log's end at the first run). Once the cursor exists it changes nothing.
 */
import { DEFAULT_EXPORT_BATCH_SIZE, DEFAULT_USAGE_EVENT_SOURCE, DEFAULT_USAGE_EVENT_TYPE, USAGE_EXPORT_STARTS, type UsageExportStart } from '@retail/metering';
import type { TargetPolicy } from '../webhooks/address-rules.js';
import { isWebhookSecret, WEBHOOK_SECRET_FORM } from '../webhooks/signer.js';
import { checkWebhookUrl } from '../webhooks/url-check.js';

export const BILLING_EXPORT_VARIABLES = {
  url: 'BILLING_EXPORT_URL',
  secret: 'BILLING_EXPORT_SECRET',
  authorization: 'BILLING_EXPORT_AUTHORIZATION',
  batchSize: 'BILLING_EXPORT_BATCH_SIZE',
  intervalMs: 'BILLING_EXPORT_INTERVAL_MS',
  retryMaxMs: 'BILLING_EXPORT_RETRY_MAX_MS',
  source: 'BILLING_EXPORT_SOURCE',
  eventType: 'BILLING_EXPORT_EVENT_TYPE',
  start: 'BILLING_EXPORT_START',
} as const;

export interface BillingExportSettings {
  readonly url: string;
  readonly secret: string;
  /** The `Authorization` header of every request, when the receiver wants one. */
  readonly authorization?: string;
  readonly batchSize: number;
  readonly intervalMs: number;
  readonly retryMaxMs: number;
  readonly source: string;
  readonly eventType: string;
  /** Where an export with no cursor yet begins; ignored once the cursor exists. */
  readonly start: UsageExportStart;
}

export const DEFAULT_BILLING_EXPORT_INTERVAL_MS = 10_000;
export const DEFAULT_BILLING_EXPORT_RETRY_MAX_MS = 600_000;

function wholeNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

/** CloudEvents: `type` is a reverse-DNS name, `source` a URI-reference; neither may be blank or hold spaces. */
function attribute(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name]?.trim() || fallback;
  if (/\s/.test(value) || value.length > 200) throw new Error(`${name} must be at most 200 characters without spaces`);
  return value;
}

function startOf(env: NodeJS.ProcessEnv, name: string): UsageExportStart {
  const raw = env[name]?.trim() || 'beginning';
  const start = USAGE_EXPORT_STARTS.find((option) => option === raw);
  if (!start) throw new Error(`${name} must be one of ${USAGE_EXPORT_STARTS.join(', ')}`);
  return start;
}

/** The export's settings, or undefined when BILLING_EXPORT_URL is not set; throws naming the bad variable. */
export function loadBillingExport(env: NodeJS.ProcessEnv, policy: TargetPolicy): BillingExportSettings | undefined {
  const v = BILLING_EXPORT_VARIABLES;
  const url = env[v.url]?.trim() ?? '';
  const secret = env[v.secret]?.trim() ?? '';
  if (!url) {
    if (secret) throw new Error(`${v.secret} is set without ${v.url}`);
    return undefined;
  }
  const checked = checkWebhookUrl(url, policy);
  if (!checked.ok) throw new Error(`${v.url}: ${checked.errors[0]!.message}`);
  if (!isWebhookSecret(secret)) throw new Error(`${v.secret} must be ${WEBHOOK_SECRET_FORM}`);
  const authorization = env[v.authorization]?.trim() ?? '';
  // A header value: no line breaks (they would split the request), never echoed.
  if (/[\r\n]/.test(authorization)) throw new Error(`${v.authorization} must be one line`);
  return {
    url,
    secret,
    ...(authorization && { authorization }),
    batchSize: wholeNumber(env, v.batchSize, 1, 1000, DEFAULT_EXPORT_BATCH_SIZE),
    intervalMs: wholeNumber(env, v.intervalMs, 100, 3_600_000, DEFAULT_BILLING_EXPORT_INTERVAL_MS),
    retryMaxMs: wholeNumber(env, v.retryMaxMs, 1000, 86_400_000, DEFAULT_BILLING_EXPORT_RETRY_MAX_MS),
    source: attribute(env, v.source, DEFAULT_USAGE_EVENT_SOURCE),
    eventType: attribute(env, v.eventType, DEFAULT_USAGE_EVENT_TYPE),
    start: startOf(env, v.start),
  };
}
