/**
 * SendTestWebhook: a WEBHOOK_TEST event appended to the watch's events and handed to the webhook
 * queue exactly as a refresh's events are (deliverEvents), so the receiver gets a real delivery:
 * signed with the watch's secret, retried on failure, listed with the watch's deliveries and
 * redeliverable. It changes nothing about the watch; its `after` names the watched product. Each call
 * is its own event (a fresh dedupe key): a person pressing "Send a test event" twice gets two.
 */
import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { type SendTestWebhookRequest, SendTestWebhookRequestSchema, type SendTestWebhookResponse, SendTestWebhookResponseSchema } from '@retail/contract';
import { deliverEvents } from '../refresh/deliver-events.js';
import type { CallContext, ServiceParts } from './deps.js';
import { invalidArgument } from './errors.js';
import { checkDeclaredRules } from './request-checks.js';
import { eventMessage } from './to-proto.js';
import { ownWatch } from './watch-read.js';

export function sendTestWebhookHandler(parts: ServiceParts) {
  return async (request: SendTestWebhookRequest, context: CallContext): Promise<SendTestWebhookResponse> => {
    checkDeclaredRules(SendTestWebhookRequestSchema, request);
    const watch = await ownWatch(parts, context.accountId, request.watchId, 'watch_id');
    if (!watch.webhookUrl) throw invalidArgument('the watch has no webhook: set its webhook.url first', 'watch_id');
    const [event] = await parts.store.events.append([{
      accountId: context.accountId,
      watchId: watch.id,
      type: 'WEBHOOK_TEST',
      before: null,
      after: { asin: watch.asin, domain: watch.domain, status: watch.status },
      at: parts.now(),
      dedupeKey: `test:${randomUUID()}`,
    }]);
    await deliverEvents(parts.store, parts.deliveries, [watch], [event!]);
    return create(SendTestWebhookResponseSchema, { retailWatchEvent: eventMessage(event!) });
  };
}
