/**
 * Webhooks of watches: where they may go (url-check, address-rules, guarded-lookup), how they are
 * signed (signer) and their secrets kept (secret-box, secret-keys), one attempt (deliver, outcome)
 * and the back-off the queue applies between attempts (retry-schedule). See docs/watches.md, "Webhooks"
 * (what a receiver gets) and docs/engineering-watches.md (how the watcher delivers).
 */
export { classifyAddress, isLoopbackHost, refusalOfAddress, type AddressClass, type AddressKind, type TargetPolicy } from './address-rules.js';
export { checkWebhookUrl, WEBHOOK_URL_PATH, type CheckedWebhookUrl, type WebhookUrlError } from './url-check.js';
export { guardedLookup, systemResolve, TargetRefusedError, type ResolveHost } from './guarded-lookup.js';
export { generateWebhookSecret, signatureHeaders, type SignatureHeaders } from './signer.js';
export { openSecret, sealedWithRetiredKey, sealSecret, SecretBoxError, type SecretKeyring } from './secret-box.js';
export { loadSecretKeyring, SECRET_KEY_VARIABLE, RETIRED_KEYS_VARIABLE } from './secret-keys.js';
export { webhookPayload, type WebhookPayload } from './payload.js';
export { createWebhookSender, DEFAULT_DELIVERY_TIMEOUT_MS, type WebhookDelivery, type WebhookSender, type WebhookSenderOptions } from './deliver.js';
export type { DeliveryOutcome, DeliveryResult } from './outcome.js';
export { loadWebhookConfig, ALLOW_LOOPBACK_VARIABLE, ALLOW_PRIVATE_VARIABLE, TIMEOUT_VARIABLE, type WebhookConfig } from './config.js';
export { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_RETRY_JITTER } from './retry-schedule.js';
