/**
 * The watcher's own housekeeping, run as repeating jobs on the same job system as refreshes (never a
 * timer loop): with BullMQ each due run is taken by exactly one replica, however many run.
 *
 * - store maintenance (snapshot partitions ahead, retention) once a day;
 * - the resume check every minute: accounts whose watches were paused for lack of units and that
 *   can pay again get their watches back (the grant path may also call resumePaused directly).
 */
import { defineQueue } from '../queue/index.js';

/** Nothing to carry: each run reads the current state. */
export type HousekeepingJob = Record<string, never>;

/** A failed run is simply done again by the next one; no retries of its own. */
export const MAINTENANCE_QUEUE = defineQueue<HousekeepingJob>('watcher-maintenance');
export const RESUME_CHECK_QUEUE = defineQueue<HousekeepingJob>('watcher-resume-check');

export const MAINTENANCE_SCHEDULE = { id: 'store-maintenance', everyMs: 24 * 60 * 60 * 1000 } as const;
export const RESUME_CHECK_SCHEDULE = { id: 'resume-paused', everyMs: 60 * 1000 } as const;
