/** GetWatch and ListWatches: the account's watches only; another account's watch is NOT_FOUND. */
import { create } from '@bufbuild/protobuf';
import {
  type GetWatchRequest, GetWatchRequestSchema, type GetWatchResponse, GetWatchResponseSchema, type ListWatchesRequest,
  ListWatchesRequestSchema, type ListWatchesResponse, ListWatchesResponseSchema,
} from '@retail/contract';
import type { Watch } from '../model.js';
import type { CallContext, ServiceParts } from './deps.js';
import { DEFAULT_WATCH_PAGE } from './declared-defaults.js';
import { notFound } from './errors.js';
import { pageOrInvalidCursor } from './pages.js';
import { checkDeclaredRules } from './request-checks.js';
import { watchMessage } from './to-proto.js';

/** The account's watch, or NOT_FOUND naming `field` (unknown, deleted or another account's alike). */
export async function ownWatch(parts: ServiceParts, accountId: string, id: string, field: string): Promise<Watch> {
  const watch = await parts.store.watches.get(accountId, id);
  if (!watch) throw notFound('watch', field);
  return watch;
}

export function getWatchHandler(parts: ServiceParts) {
  return async (request: GetWatchRequest, context: CallContext): Promise<GetWatchResponse> => {
    checkDeclaredRules(GetWatchRequestSchema, request);
    return create(GetWatchResponseSchema, { retailWatch: watchMessage(await ownWatch(parts, context.accountId, request.id, 'id')) });
  };
}

export function listWatchesHandler(parts: ServiceParts) {
  return async (request: ListWatchesRequest, context: CallContext): Promise<ListWatchesResponse> => {
    checkDeclaredRules(ListWatchesRequestSchema, request);
    const page = await pageOrInvalidCursor(() => parts.store.watches.list(context.accountId, {
      limit: request.limit ?? DEFAULT_WATCH_PAGE,
      newestFirst: true,
      ...(request.cursor !== undefined && { cursor: request.cursor }),
    }));
    return create(ListWatchesResponseSchema, {
      retailWatches: { watches: page.items.map((watch) => watchMessage(watch)), ...(page.nextCursor !== null && { nextCursor: page.nextCursor }) },
    });
  };
}
