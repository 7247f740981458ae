/**
 * ListWebhookDeliveries and RedeliverWebhook. A redelivery reopens the row (PENDING, due now; its
 * attempts stay counted) and queues its job under the row's id, as the refresh pipeline does: while
 * a retry of the same row is still queued, that job takes the reopened row at its next back-off.
 */
import { create } from '@bufbuild/protobuf';
import {
  type ListWebhookDeliveriesRequest, ListWebhookDeliveriesRequestSchema, type ListWebhookDeliveriesResponse,
  ListWebhookDeliveriesResponseSchema, type RedeliverWebhookRequest, RedeliverWebhookRequestSchema, type RedeliverWebhookResponse,
  RedeliverWebhookResponseSchema,
} from '@retail/contract';
import type { CallContext, ServiceParts } from './deps.js';
import { DEFAULT_DELIVERY_PAGE } from './declared-defaults.js';
import { notFound } from './errors.js';
import { pageOrInvalidCursor } from './pages.js';
import { checkDeclaredRules } from './request-checks.js';
import { deliveryMessage } from './to-proto.js';
import { ownWatch } from './watch-read.js';

export function listWebhookDeliveriesHandler(parts: ServiceParts) {
  return async (request: ListWebhookDeliveriesRequest, context: CallContext): Promise<ListWebhookDeliveriesResponse> => {
    checkDeclaredRules(ListWebhookDeliveriesRequestSchema, request);
    await ownWatch(parts, context.accountId, request.watchId, 'watch_id');
    const page = await pageOrInvalidCursor(() => parts.store.deliveries.listForWatch(context.accountId, request.watchId, {
      limit: request.limit ?? DEFAULT_DELIVERY_PAGE,
      ...(request.cursor !== undefined && { cursor: request.cursor }),
    }));
    return create(ListWebhookDeliveriesResponseSchema, {
      retailWebhookDeliveries: { deliveries: page.items.map(deliveryMessage), ...(page.nextCursor !== null && { nextCursor: page.nextCursor }) },
    });
  };
}

export function redeliverWebhookHandler(parts: ServiceParts) {
  return async (request: RedeliverWebhookRequest, context: CallContext): Promise<RedeliverWebhookResponse> => {
    checkDeclaredRules(RedeliverWebhookRequestSchema, request);
    await ownWatch(parts, context.accountId, request.watchId, 'watch_id');
    const work = await parts.store.deliveries.reopen(context.accountId, request.deliveryId, request.watchId);
    if (!work) throw notFound('delivery', 'delivery_id');
    await parts.deliveries.add({ deliveryId: work.delivery.id }, { id: work.delivery.id, priority: 'interactive' });
    return create(RedeliverWebhookResponseSchema, { retailWebhookDelivery: deliveryMessage(work.delivery) });
  };
}
