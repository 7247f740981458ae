/**
 * Hands a refresh's events to the webhook queue: one delivery row per event of a watch with a
 * webhook (unique per event and URL, so a re-run finds the same row), and one job per row whose id is
 * the row's id (the queue drops a second add while the first waits). A delivered or dead row is not
 * enqueued again: a re-run must not send a delivered event twice.
 */
import type { Watch, WatchEvent } from '../model.js';
import type { JobQueue } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import type { DeliveryJob } from './refresh-queues.js';

export async function deliverEvents(
  store: WatchStore,
  deliveries: JobQueue<DeliveryJob>,
  watches: readonly Watch[],
  events: readonly WatchEvent[],
): Promise<void> {
  const byId = new Map(watches.map((watch) => [watch.id, watch]));
  // Event id order: a watch's deliveries are enqueued (and so first attempted) in the order they happened.
  for (const event of [...events].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))) {
    const url = byId.get(event.watchId)?.webhookUrl;
    if (!url) continue;
    const delivery = await store.deliveries.create({ eventId: event.id, watchId: event.watchId, accountId: event.accountId, url });
    if (delivery.status === 'PENDING') await deliveries.add({ deliveryId: delivery.id }, { id: delivery.id });
  }
}
