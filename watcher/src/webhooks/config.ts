/**
 * The operator's webhook settings, read once from the environment.
 *
 * - WEBHOOK_ALLOW_PRIVATE_TARGETS=true: webhooks may go to loopback, private, link-local, CGNAT and
 *   unique-local addresses and to internal names (localhost, .local, .internal, .svc, single labels).
 *   For development, tests and receivers inside the operator's own network. Default false.
 *   Metadata endpoints and non-unicast addresses stay refused either way.
 * - WEBHOOK_ALLOW_LOOPBACK=true: webhooks may go to this machine's loopback, over http too (a
 *   receiver beside a one-process service, `retail listen`). Default false; `npm start` and
 *   `npm run demo` turn it on unless it is set (app/src/config.ts); the chart never does.
 * - WEBHOOK_TIMEOUT_MS: the whole of one attempt, default 10000.
 */
import type { TargetPolicy } from './address-rules.js';
import { DEFAULT_DELIVERY_TIMEOUT_MS } from './deliver.js';

export const ALLOW_PRIVATE_VARIABLE = 'WEBHOOK_ALLOW_PRIVATE_TARGETS';
export const TIMEOUT_VARIABLE = 'WEBHOOK_TIMEOUT_MS';
export const ALLOW_LOOPBACK_VARIABLE = 'WEBHOOK_ALLOW_LOOPBACK';

export interface WebhookConfig {
  readonly policy: TargetPolicy;
  readonly timeoutMs: number;
}

/** A typo must not open the private network, nor silently keep it closed: only true and false are read. */
function flag(raw: string | undefined, name: string): boolean {
  if (raw === undefined || raw === '') return false;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function timeout(raw: string | undefined, name: string): number {
  if (raw === undefined || raw === '') return DEFAULT_DELIVERY_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 100 || value > 60_000) throw new Error(`${name} must be milliseconds from 100 to 60000, got "${raw}"`);
  return value;
}

export function loadWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  return {
    policy: { allowPrivateTargets: flag(env[ALLOW_PRIVATE_VARIABLE], ALLOW_PRIVATE_VARIABLE), allowLoopback: flag(env[ALLOW_LOOPBACK_VARIABLE], ALLOW_LOOPBACK_VARIABLE) },
    timeoutMs: timeout(env[TIMEOUT_VARIABLE], TIMEOUT_VARIABLE),
  };
}
