/**
 * The processor of one product's refresh run (`US:B0…:dueAt`): admit each due watch's unit, read the
 * product once for every account, store the snapshot, append the events its conditions produce,
 * hand them to the webhook queue, mark the watches refreshed and settle the units.
 *
 * Everything is keyed by the run so that a re-run after a crash at any point repeats nothing:
 * - the run's time is its due time (`run.dueAt`), so the snapshot is the same row (unique per
 *   product and time) and a re-run finds it instead of reading the page again;
 * - events are keyed by (watch, type, snapshot id + condition) and found again after a crash;
 * - deliveries are unique per (event, URL) and their jobs per delivery id;
 * - holds are per (watch, run, attempt): the ledger admits and settles each once;
 * - one run of a product at a time (product-run-lock.ts), so overlapping runs do not both serve a watch;
 * - watches are marked refreshed before their units settle: a marked watch is no longer due, so a
 *   re-run never admits or settles it again. A crash between the two leaves that one refresh unpaid
 *   (its hold returns at expiry), which is the side to err on: a unit is never charged twice.
 *
 * What is stored is judged against the product's own history first (quality/judge-read.ts): fields
 * the page should show but did not are unknown, implausible values are read again past the page
 * cache and stored suspect when that read does not show them. That second read is the service's own
 * check and is never charged (docs/watches.md, Quality marks).
 */
import { ErrorReason } from '@retail/contract';
import type { Hold, Meter } from '@retail/metering';
import { eventsBetween } from '../conditions/evaluate.js';
import type { Snapshot, Watch, WatchEvent } from '../model.js';
import { type JobQueue, type JobRun, UnrecoverableJobError } from '../queue/index.js';
import { judgeRead } from '../quality/judge-read.js';
import type { EventDraft, WatchStore } from '../store/index.js';
import { deliverEvents } from './deliver-events.js';
import { refreshHoldId } from './hold-ids.js';
import { pauseWithEvent } from './lifecycle-events.js';
import { createProductRunLock } from './product-run-lock.js';
import type { DeliveryJob, RefreshJob } from './refresh-queues.js';
import { syncProductSchedule } from './schedule-sync.js';
import type { SnapshotReader } from './snapshot-reader.js';

export interface RefreshDependencies {
  readonly store: WatchStore;
  readonly meter: Pick<Meter, 'admitAccount' | 'settle'>;
  readonly reader: SnapshotReader;
  readonly deliveries: JobQueue<DeliveryJob>;
  /** The refresh queue: a run that finds no active watch left removes its product's schedule. */
  readonly refreshes?: JobQueue<RefreshJob>;
  readonly log?: (line: string) => void;
}

/** The operation a refresh stands for in the usage records: what a client pays one unit for. */
export const REFRESH_OPERATION = 'GetProduct';

/** Thrown so the queue retries the run (its holds are settled with 0 first: a failed read is never charged). */
export class RetryableRefreshError extends Error {
  override readonly name = 'RetryableRefreshError';
}

/**
 * What identifies a run for its holds and pause events. A scheduled run's id holds its due time, but a
 * one-off job's id (`US:B0…:now`) comes back with every later "refresh now" once the earlier job is
 * gone (a resume, a second watch on the product). Its due time (the add time, the same on every
 * re-run and retry) tells the occasions apart: under the bare id the ledger, which remembers a
 * settled hold for its settle window, would admit the later run without a hold and serve it free,
 * and its pause event would be taken for the earlier one's.
 */
function runKeyOf(run: JobRun<RefreshJob>): string {
  return run.scheduleId !== undefined ? run.id : `${run.id}@${run.dueAt}`;
}

interface Served {
  readonly watch: Watch;
  readonly hold: Hold;
}

export function createRefreshProcessor(deps: RefreshDependencies): (run: JobRun<RefreshJob>) => Promise<void> {
  const { store, meter, reader } = deps;
  const log = deps.log ?? (() => undefined);
  const oneRunPerProduct = createProductRunLock(store.db);

  const releaseAll = (served: readonly Served[]) => Promise.all(served.map(({ hold }) => meter.settle(hold, 0)));

  /** Holds one unit per due watch; pauses the watches whose account cannot pay. */
  async function admit(run: JobRun<RefreshJob>, watches: readonly Watch[], at: Date): Promise<Served[]> {
    const served: Served[] = [];
    const cannotPay: Watch[] = [];
    for (const watch of watches) {
      const holdId = refreshHoldId(watch.id, runKeyOf(run), run.attempt);
      const admitted = await meter.admitAccount({ accountId: watch.accountId, holdId, work: 'watcher', operations: [REFRESH_OPERATION] });
      if (admitted.ok) {
        served.push({ watch, hold: admitted.hold });
      } else if (admitted.denial.reason === ErrorReason.INSUFFICIENT_UNITS) {
        cannotPay.push(watch);
      } else if (admitted.denial.reason === ErrorReason.LEDGER_UNAVAILABLE) {
        await releaseAll(served);
        throw new RetryableRefreshError('the unit ledger is unavailable');
      } else {
        // An unknown or disabled account: nothing to charge and nothing to serve; the watch stays due.
        log(`refresh ${run.id}: watch ${watch.id} skipped (${admitted.denial.message})`);
      }
    }
    const paused = await pauseWithEvent(store, cannotPay, { reason: 'INSUFFICIENT_UNITS', eventType: 'WATCH_PAUSED', runId: runKeyOf(run), at });
    await deliverEvents(store, deps.deliveries, cannotPay, paused);
    return served;
  }

  /** This run's snapshot: stored by an earlier attempt of the run, or read now (once for every watch). */
  async function snapshotOfRun(domain: Watch['domain'], asin: string, at: Date): Promise<Snapshot | 'not-found' | { failed: string; retryable: boolean }> {
    const [stored] = await store.snapshots.history({ domain, asin, from: at, to: at });
    if (stored) return stored;
    const read = await reader.read(domain, asin);
    if (read.kind === 'not-found') return 'not-found';
    if (read.kind === 'failed') return { failed: read.reason, retryable: read.retryable };
    const trusted = await store.snapshots.trustedAt(domain, asin, new Date(at.getTime() - 1));
    const judged = await judgeRead(read, trusted, () => reader.read(domain, asin, { fresh: true }));
    if (judged.confirmed.length > 0) log(`refresh ${domain}:${asin}: confirmed ${judged.confirmed.join(', ')} by a fresh read; suspect: ${judged.fields.suspectFields?.join(', ') ?? 'none'}`);
    return { ...judged.fields, domain, asin, at };
  }

  /**
   * What a watch last saw (its last refresh's snapshot), against which its conditions compare: its
   * unknown and suspect fields stand at the product's last trusted values.
   */
  async function previousOf(watch: Watch): Promise<Snapshot | null> {
    if (!watch.lastRefreshAt) return null;
    return store.snapshots.trustedAt(watch.domain, watch.asin, watch.lastRefreshAt);
  }

  return async function refreshProduct(run: JobRun<RefreshJob>): Promise<void> {
    const outcome = await oneRunPerProduct(run.data.domain, run.data.asin, () => refreshLocked(run));
    if (!outcome.ran) throw new RetryableRefreshError(`refresh ${run.id}: another run of the product is in progress`);
  };

  async function refreshLocked(run: JobRun<RefreshJob>): Promise<void> {
    const { domain, asin } = run.data;
    const at = new Date(run.dueAt);
    const due = await store.watches.dueOfProduct(domain, asin, at);
    if (due.length === 0) {
      if (deps.refreshes) await syncProductSchedule(store, deps.refreshes, { domain, asin });
      return;
    }
    const served = await admit(run, due, at);
    if (served.length === 0) return;

    const snapshot = await snapshotOfRun(domain, asin, at);
    if (snapshot === 'not-found') {
      const events = await pauseWithEvent(store, served.map((s) => s.watch), { reason: 'NOT_FOUND', eventType: 'PRODUCT_NOT_FOUND', runId: runKeyOf(run), at });
      await deliverEvents(store, deps.deliveries, served.map((s) => s.watch), events);
      await releaseAll(served);
      return;
    }
    if ('failed' in snapshot) {
      await releaseAll(served);
      const message = `refresh ${run.id}: read failed (${snapshot.failed})`;
      throw snapshot.retryable ? new RetryableRefreshError(message) : new UnrecoverableJobError(message);
    }

    const recorded = await store.snapshots.record(snapshot);
    const drafts: EventDraft[] = [];
    for (const { watch } of served) {
      for (const event of eventsBetween(watch.conditions, await previousOf(watch), snapshot)) {
        drafts.push({
          accountId: watch.accountId,
          watchId: watch.id,
          type: event.type,
          before: event.before,
          after: event.after,
          at,
          dedupeKey: `${recorded.id}:${event.condition.type}:${event.condition.value ?? ''}`,
        });
      }
    }
    await store.events.append(drafts);
    const events: WatchEvent[] = await store.events.findAppended(drafts);
    await deliverEvents(store, deps.deliveries, served.map((s) => s.watch), events);
    await store.watches.markRefreshed(served.map((s) => s.watch.id), at);
    for (const { hold } of served) await meter.settle(hold, 1);
  }
}
