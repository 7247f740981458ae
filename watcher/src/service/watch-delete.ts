/**
 * DeleteWatch: the watch goes with its events and deliveries (the store's cascade); the product's
 * shared snapshots stay. Its product's schedule then follows the watches left (removed when none is
 * active). A second delete is NOT_FOUND, like any unknown id.
 */
import { create } from '@bufbuild/protobuf';
import { type DeleteWatchRequest, DeleteWatchRequestSchema, type DeleteWatchResponse, DeleteWatchResponseSchema } from '@retail/contract';
import type { CallContext, ServiceParts } from './deps.js';
import { notFound } from './errors.js';
import { followWatchChange } from './product-schedule.js';
import { checkDeclaredRules } from './request-checks.js';
import { ownWatch } from './watch-read.js';

export function deleteWatchHandler(parts: ServiceParts) {
  return async (request: DeleteWatchRequest, context: CallContext): Promise<DeleteWatchResponse> => {
    checkDeclaredRules(DeleteWatchRequestSchema, request);
    const watch = await ownWatch(parts, context.accountId, request.id, 'id');
    if (!(await parts.store.watches.delete(context.accountId, watch.id))) throw notFound('watch', 'id');
    await followWatchChange(parts, watch, { refreshNow: false });
    return create(DeleteWatchResponseSchema, { retailWatch: { id: watch.id, deleted: true } });
  };
}
