/**
 * Units came back to an account (a grant, a purchase): its watches paused for lack of units become
 * active and due at once, each with a WATCH_RESUMED event; their products get their schedules back
 * and one refresh right away. Watches their owner paused stay paused. For the console's and the admin
 * CLI's grant path.
 *
 * The events are appended before the watches resume, keyed by the due time the watch was paused at
 * (unchanged while paused, different for every pause): a call that fails half-way and is repeated
 * appends nothing twice, and no resumed watch lacks its event.
 */
import type { Watch } from '../model.js';
import type { JobQueue } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import { deliverEvents } from './deliver-events.js';
import { productScheduleId, type DeliveryJob, type RefreshJob } from './refresh-queues.js';
import { syncProductSchedule } from './schedule-sync.js';

/** The job id of "refresh this product now" (a dedup id: a second request while one waits adds nothing). */
export function refreshNowJobId(domain: Watch['domain'], asin: string): string {
  return `${productScheduleId(domain, asin)}:now`;
}

async function pausedForUnits(store: WatchStore, accountId: string): Promise<Watch[]> {
  const paused: Watch[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.watches.list(accountId, { limit: 100, ...(cursor !== undefined && { cursor }) });
    paused.push(...page.items.filter((watch) => watch.status === 'PAUSED' && watch.pausedReason === 'INSUFFICIENT_UNITS'));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return paused;
}

/**
 * With `deliveries`, the WATCH_RESUMED events go to the watches' webhooks like every other event
 * (delivery rows are unique per event, so a repeated call adds none).
 */
export async function resumePaused(
  store: WatchStore,
  refreshes: JobQueue<RefreshJob>,
  accountId: string,
  now: () => Date = () => new Date(),
  deliveries?: JobQueue<DeliveryJob>,
): Promise<Watch[]> {
  const paused = await pausedForUnits(store, accountId);
  if (paused.length === 0) return [];
  const at = now();
  const drafts = paused.map((watch) => ({
    accountId,
    watchId: watch.id,
    type: 'WATCH_RESUMED' as const,
    before: { status: 'PAUSED', pausedReason: 'INSUFFICIENT_UNITS' },
    after: { status: 'ACTIVE' },
    at,
    dedupeKey: `resumed-from:${watch.nextRefreshAt.toISOString()}`,
  }));
  await store.events.append(drafts);
  if (deliveries) await deliverEvents(store, deliveries, paused, await store.events.findAppended(drafts));
  const resumed = await store.watches.resume(accountId, 'INSUFFICIENT_UNITS', paused.map((watch) => watch.id));
  const products = new Map(resumed.map((watch) => [productScheduleId(watch.domain, watch.asin), { domain: watch.domain, asin: watch.asin }]));
  for (const product of products.values()) {
    await syncProductSchedule(store, refreshes, product);
    await refreshes.add(product, { id: refreshNowJobId(product.domain, product.asin), priority: 'interactive' });
  }
  return resumed;
}
