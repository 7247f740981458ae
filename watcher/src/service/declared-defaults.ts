/**
 * Defaults as the proto declares them (`default_value` of a request field's parameter option), read
 * once: the handlers never repeat a number the contract already states.
 */
import type { DescMessage } from '@bufbuild/protobuf';
import {
  CreateWatchRequestSchema, GetProductHistoryRequestSchema, ListWatchEventsRequestSchema, ListWatchesRequestSchema,
  ListWebhookDeliveriesRequestSchema, requestRules,
} from '@retail/contract';

function declaredNumber(desc: DescMessage, jsonName: string): number {
  const value = Number(requestRules(desc).find((r) => r.name === jsonName)?.defaultValue);
  if (!Number.isFinite(value)) throw new Error(`${desc.typeName}.${jsonName} declares no numeric default`);
  return value;
}

export const DEFAULT_INTERVAL_SECONDS = declaredNumber(CreateWatchRequestSchema, 'intervalSeconds');
export const DEFAULT_WATCH_PAGE = declaredNumber(ListWatchesRequestSchema, 'limit');
export const DEFAULT_EVENT_PAGE = declaredNumber(ListWatchEventsRequestSchema, 'limit');
export const DEFAULT_DELIVERY_PAGE = declaredNumber(ListWebhookDeliveriesRequestSchema, 'limit');
export const DEFAULT_HISTORY_POINTS = declaredNumber(GetProductHistoryRequestSchema, 'maxPoints');
