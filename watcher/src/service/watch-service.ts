/**
 * createWatchService: one handler per RPC of retail.v1.WatchService, keyed by the method's local name
 * (createWatch, streamWatchEvents, …) so the gRPC server binds them from the descriptor. Unary
 * handlers answer a response message; the one server-streaming handler is an async iterable.
 * Transport-free: the same object can serve gRPC (server.ts) or be called in process.
 */
import type { Message } from '@bufbuild/protobuf';
import { deleteWatchHandler } from './watch-delete.js';
import { type CallContext, serviceParts, type WatchServiceDeps } from './deps.js';
import { listWebhookDeliveriesHandler, redeliverWebhookHandler } from './deliveries.js';
import { listWatchEventsHandler } from './events-list.js';
import { streamWatchEventsHandler } from './events-stream.js';
import { productHistoryHandler } from './product-history.js';
import { sendTestWebhookHandler } from './test-webhook.js';
import { createWatchHandler } from './watch-create.js';
import { getWatchHandler, listWatchesHandler } from './watch-read.js';
import { updateWatchHandler } from './watch-update.js';

export type UnaryHandler<I extends Message = Message, O extends Message = Message> = (request: I, context: CallContext) => Promise<O>;
export type StreamHandler<I extends Message = Message, O extends Message = Message> = (request: I, context: CallContext) => AsyncIterable<O>;

export function createWatchService(deps: WatchServiceDeps) {
  const parts = serviceParts(deps);
  return {
    createWatch: createWatchHandler(parts),
    listWatches: listWatchesHandler(parts),
    getWatch: getWatchHandler(parts),
    updateWatch: updateWatchHandler(parts),
    deleteWatch: deleteWatchHandler(parts),
    getProductHistory: productHistoryHandler(parts),
    listWatchEvents: listWatchEventsHandler(parts),
    listWebhookDeliveries: listWebhookDeliveriesHandler(parts),
    redeliverWebhook: redeliverWebhookHandler(parts),
    sendTestWebhook: sendTestWebhookHandler(parts),
    streamWatchEvents: streamWatchEventsHandler(parts),
  };
}

export type WatchServiceHandlers = ReturnType<typeof createWatchService>;
