/**
 * What a change of watches means for the job system: the product's repeating schedule follows its
 * active watches (refresh/schedule-sync.ts), and a new or resumed watch gets its snapshot at once
 * (an `interactive` one-off refresh under the product's "now" dedup id, as resumePaused adds it)
 * instead of waiting up to one interval for the schedule's first slot.
 *
 * The watch is already stored when this runs. A queue that is down must not turn a stored watch into
 * an error the client would retry (and so create twice): the failure is logged, and the watch stays
 * due in PostgreSQL, where the next change of the product or the start-up sync (syncAllSchedules)
 * picks it up.
 */
import type { DomainCode } from '../model.js';
import { refreshNowJobId, syncProductSchedule } from '../refresh/index.js';
import type { ServiceParts } from './deps.js';

export async function followWatchChange(parts: ServiceParts, product: { domain: DomainCode; asin: string }, options: { refreshNow: boolean }): Promise<void> {
  try {
    const scheduled = await syncProductSchedule(parts.store, parts.refreshes, product);
    if (scheduled && options.refreshNow) {
      await parts.refreshes.add({ domain: product.domain, asin: product.asin }, { id: refreshNowJobId(product.domain, product.asin), priority: 'interactive' });
    }
  } catch (error) {
    parts.log?.error({ err: error, domain: product.domain, asin: product.asin }, 'could not update the product\'s refresh schedule; the start-up sync will');
  }
}
