/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the receiver checks
 * `webhook-signature` = v1,base64(HMAC-SHA256(secret, "<webhook-id>.<webhook-timestamp>.<body>"))
 * with any Standard Webhooks library. The signing itself is the `standardwebhooks` package's, so the
 * sender and the receivers' libraries cannot drift apart.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The prefix Standard Webhooks libraries expect before the base64 key. */
export const SECRET_PREFIX = 'whsec_';

/** 32 random bytes: the HMAC-SHA256 block's worth of key (the scheme allows 24 to 64). */
export const SECRET_BYTES = 32;

/** Whether a secret has the Standard Webhooks form: whsec_ and base64 of 24 to 64 bytes. */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const key = secret.slice(SECRET_PREFIX.length);
  const bytes = Buffer.from(key, 'base64').length;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(key) && bytes >= 24 && bytes <= 64;
}

/** What a refused secret variable is told. */
export const WEBHOOK_SECRET_FORM = 'a Standard Webhooks secret: whsec_ and base64 of 24 to 64 bytes';

/** A new secret for a webhook; shown to the client once, then only stored sealed (secret-box.ts). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export interface SignatureHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/**
 * The three headers of one attempt. `id` is the event id on every attempt (receivers de-duplicate on
 * it); `sentAt` is the attempt's own time, so a retry hours later still passes the receivers'
 * five-minute freshness check that guards them against replays.
 */
export function signatureHeaders(secret: string, id: string, sentAt: Date, body: string): SignatureHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, sentAt, body),
  };
}
