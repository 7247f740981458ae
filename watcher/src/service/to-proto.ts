/**
 * The watcher's records (model.ts, the store's rows) as retail.v1 messages. Enum values share their
 * names with the model's strings (WATCH_STATUS_ACTIVE ↔ 'ACTIVE'), so each mapping is the generated
 * enum object read by name, declared nowhere else.
 */
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  Domain, HistoryPointQuality, type ProductHistoryPoint, ProductHistoryPointSchema, type ProductHistorySummary, ProductHistorySummarySchema, PriceSchema,
  type Watch as WatchMessage, WatchConditionType,
  type WatchEvent as WatchEventMessage, WatchEventSchema, WatchEventStateSchema, WatchEventType, WatchPausedReason, WatchSchema,
  WatchStatus, type WebhookDelivery, WebhookDeliverySchema, WebhookDeliveryStatus,
} from '@retail/contract';
import { type DomainCode, qualityOf, type Snapshot, type Watch, type WatchEvent } from '../model.js';
import type { DeliveryRecord } from '../store/index.js';
import type { HistorySummary } from '../store/history-summary.js';

type Price = { value: number; currency: string };

const priceOf = (price: Price | undefined) => (price ? create(PriceSchema, { value: price.value, currency: price.currency }) : undefined);
const timestampOf = (at: Date | undefined) => (at ? timestampFromDate(at) : undefined);
/** int64 fields are bigint in the generated code; counts and ranks are whole numbers. */
const int64 = (value: number) => BigInt(Math.trunc(value));

export const domainOf = (code: DomainCode): Domain => Domain[code];

/**
 * The watch as its owner sees it. `secret` only in the response that created (or replaced) the
 * webhook; `nextRefreshAt` only while the watch is active (a paused watch is not due).
 */
export function watchMessage(watch: Watch, secret?: string): WatchMessage {
  return create(WatchSchema, {
    id: watch.id,
    asin: watch.asin,
    domain: domainOf(watch.domain),
    ...(watch.label !== undefined && { label: watch.label }),
    intervalSeconds: watch.intervalSeconds,
    conditions: watch.conditions.map((c) => ({ type: WatchConditionType[c.type], ...(c.value !== undefined && { value: c.value }) })),
    ...(watch.webhookUrl !== undefined && { webhook: { url: watch.webhookUrl, ...(secret !== undefined && { secret }) } }),
    status: WatchStatus[watch.status],
    ...(watch.pausedReason !== undefined && { pausedReason: WatchPausedReason[watch.pausedReason] }),
    createdAt: timestampFromDate(watch.createdAt),
    lastRefreshAt: timestampOf(watch.lastRefreshAt),
    nextRefreshAt: watch.status === 'ACTIVE' ? timestampFromDate(watch.nextRefreshAt) : undefined,
  });
}

/** The fields a snapshot gives a history point, and an event's before/after state alike. */
function snapshotFields(s: Partial<Snapshot>) {
  return {
    price: priceOf(s.price),
    listPrice: priceOf(s.listPrice),
    ...(s.isInStock !== undefined && { isInStock: s.isInStock }),
    ...(s.buyboxSellerId !== undefined && { buyboxSellerId: s.buyboxSellerId }),
    ...(s.rating !== undefined && { rating: s.rating }),
    ...(s.ratingsTotal !== undefined && { ratingsTotal: int64(s.ratingsTotal) }),
    ...(s.bestSellersRank !== undefined && { bestSellersRank: int64(s.bestSellersRank) }),
    ...(s.offerCount !== undefined && { offerCount: int64(s.offerCount) }),
  };
}

/** A before/after record of an event (snapshot fields, or a lifecycle change) as a WatchEventState. */
function eventState(state: Readonly<Record<string, unknown>> | null) {
  if (state === null) return undefined;
  const s = state as Partial<Snapshot> & { status?: Watch['status']; pausedReason?: Watch['pausedReason'] };
  return create(WatchEventStateSchema, {
    ...snapshotFields(s),
    ...(s.bestSellersCategory !== undefined && { bestSellersCategory: s.bestSellersCategory }),
    ...(s.status !== undefined && { status: WatchStatus[s.status] }),
    ...(s.pausedReason !== undefined && { pausedReason: WatchPausedReason[s.pausedReason] }),
  });
}

export function eventMessage(event: WatchEvent): WatchEventMessage {
  return create(WatchEventSchema, {
    id: event.id,
    watchId: event.watchId,
    type: WatchEventType[event.type],
    before: eventState(event.before),
    after: eventState(event.after),
    at: timestampFromDate(event.at),
  });
}

export function historySummaryMessage(summary: HistorySummary): ProductHistorySummary {
  return create(ProductHistorySummarySchema, {
    snapshots: BigInt(summary.snapshots),
    firstAt: timestampOf(summary.firstAt),
    lastAt: timestampOf(summary.lastAt),
    currentPrice: priceOf(summary.currentPrice),
    ...(summary.currentInStock !== undefined && { currentInStock: summary.currentInStock }),
    minPrice: priceOf(summary.minPrice),
    maxPrice: priceOf(summary.maxPrice),
    averagePrice: priceOf(summary.averagePrice),
    priceChanges: BigInt(summary.priceChanges),
    lastChangeAt: timestampOf(summary.lastChangeAt),
    lastChangeFrom: priceOf(summary.lastChangeFrom),
    lastChangeTo: priceOf(summary.lastChangeTo),
    daysInStock: summary.daysInStock,
    daysObserved: summary.daysObserved,
  });
}

export function historyPointMessage(snapshot: Snapshot): ProductHistoryPoint {
  return create(ProductHistoryPointSchema, {
    at: timestampFromDate(snapshot.at),
    ...snapshotFields(snapshot),
    // The model's marks are the enum's names in lower case ('suspect' ↔ HISTORY_POINT_QUALITY_SUSPECT).
    quality: HistoryPointQuality[qualityOf(snapshot).toUpperCase() as keyof typeof HistoryPointQuality],
    unknownFields: [...(snapshot.unknownFields ?? [])],
    suspectFields: [...(snapshot.suspectFields ?? [])],
  });
}

export function deliveryMessage(delivery: DeliveryRecord): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    id: delivery.id,
    eventId: delivery.eventId,
    url: delivery.url,
    attemptCount: delivery.attemptCount,
    status: WebhookDeliveryStatus[delivery.status],
    ...(delivery.lastResponseStatus !== undefined && { lastResponseStatus: delivery.lastResponseStatus }),
    ...(delivery.lastError !== undefined && { lastError: delivery.lastError }),
    nextAttemptAt: timestampOf(delivery.nextAttemptAt),
    deliveredAt: timestampOf(delivery.deliveredAt),
    createdAt: timestampFromDate(delivery.createdAt),
  });
}
