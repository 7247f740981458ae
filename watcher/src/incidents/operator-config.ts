/**
 * Where the operator hears of data incidents (docs/data-health.md), read once from the environment:
 *
 * - OPERATOR_WEBHOOK_URL: the operator's receiver; every incident change is POSTed there, signed
 *   with the Standard Webhooks scheme. Empty: changes are only kept and logged. It is checked as
 *   every webhook URL is (https, no private address unless WEBHOOK_ALLOW_PRIVATE_TARGETS).
 * - OPERATOR_WEBHOOK_SECRET: the `whsec_…` signing secret the receiver verifies with; required with
 *   the URL.
 */
import { isWebhookSecret, WEBHOOK_SECRET_FORM } from '../webhooks/signer.js';
import { checkWebhookUrl } from '../webhooks/url-check.js';
import type { TargetPolicy } from '../webhooks/address-rules.js';

export const OPERATOR_URL_VARIABLE = 'OPERATOR_WEBHOOK_URL';
export const OPERATOR_SECRET_VARIABLE = 'OPERATOR_WEBHOOK_SECRET';

export interface OperatorWebhook {
  readonly url: string;
  readonly secret: string;
}

/** The operator's webhook, or undefined when none is configured; throws naming the bad variable. */
export function loadOperatorWebhook(env: NodeJS.ProcessEnv, policy: TargetPolicy): OperatorWebhook | undefined {
  const url = env[OPERATOR_URL_VARIABLE]?.trim() ?? '';
  const secret = env[OPERATOR_SECRET_VARIABLE]?.trim() ?? '';
  if (!url) {
    if (secret) throw new Error(`${OPERATOR_SECRET_VARIABLE} is set without ${OPERATOR_URL_VARIABLE}`);
    return undefined;
  }
  const checked = checkWebhookUrl(url, policy);
  if (!checked.ok) throw new Error(`${OPERATOR_URL_VARIABLE}: ${checked.errors[0]!.message}`);
  if (!isWebhookSecret(secret)) throw new Error(`${OPERATOR_SECRET_VARIABLE} must be ${WEBHOOK_SECRET_FORM}`);
  return { url, secret };
}
