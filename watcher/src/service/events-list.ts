/** ListWatchEvents: the account's events in id order after a cursor, optionally of one of its watches. */
import { create } from '@bufbuild/protobuf';
import { type ListWatchEventsRequest, ListWatchEventsRequestSchema, type ListWatchEventsResponse, ListWatchEventsResponseSchema } from '@retail/contract';
import type { CallContext, ServiceParts } from './deps.js';
import { DEFAULT_EVENT_PAGE } from './declared-defaults.js';
import { pageOrInvalidCursor } from './pages.js';
import { checkDeclaredRules } from './request-checks.js';
import { eventMessage } from './to-proto.js';
import { ownWatch } from './watch-read.js';

export function listWatchEventsHandler(parts: ServiceParts) {
  return async (request: ListWatchEventsRequest, context: CallContext): Promise<ListWatchEventsResponse> => {
    checkDeclaredRules(ListWatchEventsRequestSchema, request);
    // Naming a watch that is not the account's is NOT_FOUND, not an empty page that hides the mistake.
    if (request.watchId !== undefined) await ownWatch(parts, context.accountId, request.watchId, 'watch_id');
    const page = await pageOrInvalidCursor(() => parts.store.events.list(context.accountId, {
      limit: request.limit ?? DEFAULT_EVENT_PAGE,
      ...(request.watchId !== undefined && { watchId: request.watchId }),
      ...(request.cursor !== undefined && { cursor: request.cursor }),
    }));
    return create(ListWatchEventsResponseSchema, {
      retailWatchEvents: { events: page.items.map(eventMessage), ...(page.nextCursor !== null && { nextCursor: page.nextCursor }) },
    });
  };
}
