/**
 * Lifecycle events of a refresh: a watch paused because its account cannot pay or its product is
 * gone. The event is appended before the pause: a crash between the two leaves the watch active, the
 * re-run appends nothing new (same dedupe key) and pauses it; the other order could lose the event.
 */
import type { EventType, PausedReason, Watch, WatchEvent } from '../model.js';
import type { EventDraft, WatchStore } from '../store/index.js';

export async function pauseWithEvent(
  store: WatchStore,
  watches: readonly Watch[],
  pause: { reason: PausedReason; eventType: EventType; runId: string; at: Date },
): Promise<WatchEvent[]> {
  if (watches.length === 0) return [];
  const drafts: EventDraft[] = watches.map((watch) => ({
    accountId: watch.accountId,
    watchId: watch.id,
    type: pause.eventType,
    before: { status: 'ACTIVE' },
    after: { status: 'PAUSED', pausedReason: pause.reason, ...(pause.eventType === 'PRODUCT_NOT_FOUND' && { domain: watch.domain, asin: watch.asin }) },
    at: pause.at,
    // One pause per watch per run: the run id is what happened, and it is the same on a re-run.
    dedupeKey: `${pause.reason}:${pause.runId}`,
  }));
  await store.events.append(drafts);
  for (const watch of watches) await store.watches.pause(watch.accountId, pause.reason, [watch.id]);
  return store.events.findAppended(drafts);
}
