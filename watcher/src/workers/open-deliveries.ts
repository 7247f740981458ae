/**
 * Re-adds a job for every open webhook delivery (PENDING or FAILED) at start. The in-memory job twin
 * loses its jobs with the process, and on BullMQ a job that stalled too often ends without its
 * dead-letter hook: in both cases the row stays open with no job behind it, and would also hold back
 * its watch's later deliveries. Job ids are the row ids, so a delivery whose job still waits or
 * retries is not added twice (dedup), and a FAILED row keeps its back-off: it is added with the delay
 * until its recorded next attempt.
 */
import type { JobQueue } from '../queue/index.js';
import type { DeliveryJob } from '../refresh/index.js';
import type { WatchStore } from '../store/index.js';

interface OpenRow {
  id: string;
  next_attempt_at: Date | null;
}

/** Cross-account on purpose: the delivery worker's read, oldest first. Returns how many rows it saw. */
export async function requeueOpenDeliveries(store: WatchStore, deliveries: JobQueue<DeliveryJob>, now: () => Date): Promise<number> {
  const rows = await store.db.query<OpenRow>(
    `SELECT id, next_attempt_at FROM webhook_deliveries WHERE status IN ('PENDING', 'FAILED') ORDER BY id`,
  );
  for (const row of rows) {
    const delayMs = row.next_attempt_at ? Math.max(0, new Date(row.next_attempt_at).getTime() - now().getTime()) : 0;
    await deliveries.add({ deliveryId: String(row.id) }, { id: String(row.id), ...(delayMs > 0 && { delayMs }) });
  }
  return rows.length;
}
