/**
 * Keeps each product's refresh schedule in step with its active watches: one schedule per product,
 * every = the smallest interval among them (a longer-interval watch is simply not due on every run),
 * removed when none is left. Called when watches change and at start (the in-memory job twin forgets
 * its schedules on restart; re-upserting an unchanged schedule keeps its slot on BullMQ).
 */
import type { DomainCode } from '../model.js';
import type { JobQueue } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import { productScheduleId, type RefreshJob } from './refresh-queues.js';

/** Upserts or removes one product's schedule; true when the product keeps one. */
export async function syncProductSchedule(store: WatchStore, refreshes: JobQueue<RefreshJob>, product: { domain: DomainCode; asin: string }): Promise<boolean> {
  const [active] = await store.watches.activeIntervals(product);
  const id = productScheduleId(product.domain, product.asin);
  if (!active) {
    await refreshes.removeSchedule(id);
    return false;
  }
  await refreshes.upsertSchedule(id, { everyMs: active.intervalSeconds * 1000 }, { domain: product.domain, asin: product.asin });
  return true;
}

/** Upserts the schedule of every product with an active watch (at start); returns how many. */
export async function syncAllSchedules(store: WatchStore, refreshes: JobQueue<RefreshJob>): Promise<number> {
  const products = await store.watches.activeIntervals();
  for (const product of products) {
    await refreshes.upsertSchedule(productScheduleId(product.domain, product.asin), { everyMs: product.intervalSeconds * 1000 }, { domain: product.domain, asin: product.asin });
  }
  return products.length;
}
