/**
 * The watcher's two queues, declared once for producers and workers: product refreshes (one schedule
 * per product, id `US:B0…`) and webhook deliveries (one job per delivery row, id = the row's id).
 */
import { defineQueue } from '../queue/index.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../webhooks/index.js';
import type { DomainCode } from '../model.js';

export interface RefreshJob {
  readonly domain: DomainCode;
  readonly asin: string;
}

export interface DeliveryJob {
  readonly deliveryId: string;
}

/**
 * A failed read (the marketplace busy, the core's breaker open) is retried three times within about
 * five minutes; later than that the product's next scheduled run is as good as a retry.
 */
export const REFRESH_RETRY_DELAYS_MS: readonly number[] = [15_000, 60_000, 240_000];

export const REFRESH_QUEUE = defineQueue<RefreshJob>('watch-refresh', { retryDelaysMs: REFRESH_RETRY_DELAYS_MS });
export const DELIVERY_QUEUE = defineQueue<DeliveryJob>('webhook-delivery', { retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS });

/** The schedule (and one-off refresh) id of a product: its domain and ASIN. */
export function productScheduleId(domain: DomainCode, asin: string): string {
  return `${domain}:${asin}`;
}
