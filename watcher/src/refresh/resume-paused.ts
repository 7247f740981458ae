/**
 * Units came back to an account (a grant, a purchase): its watches paused for lack of units become
 * active and due at once, each with a WATCH_RESUMED event, and their products' schedules return.
 * Watches their owner paused stay paused. For the console's and the admin CLI's grant path.
 */
import type { Watch } from '../model.js';
import type { JobQueue } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import type { RefreshJob } from './refresh-queues.js';
import { syncProductSchedule } from './schedule-sync.js';

export async function resumePaused(store: WatchStore, refreshes: JobQueue<RefreshJob>, accountId: string): Promise<Watch[]> {
  const resumed = await store.watches.resume(accountId, 'INSUFFICIENT_UNITS');
  await store.events.append(resumed.map((watch) => ({
    accountId,
    watchId: watch.id,
    type: 'WATCH_RESUMED' as const,
    before: { status: 'PAUSED', pausedReason: 'INSUFFICIENT_UNITS' },
    after: { status: 'ACTIVE' },
    at: watch.nextRefreshAt,
    // The resume time tells this resume from the next one of the same watch.
    dedupeKey: `resumed:${watch.nextRefreshAt.toISOString()}`,
  })));
  const products = new Map(resumed.map((watch) => [`${watch.domain}:${watch.asin}`, { domain: watch.domain, asin: watch.asin }]));
  for (const product of products.values()) await syncProductSchedule(store, refreshes, product);
  return resumed;
}
