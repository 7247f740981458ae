/**
 * One run of a product at a time. Two runs of one product can overlap (a new watch's one-off first
 * refresh beside the scheduled run, a run slower than its interval): both would find the same watches
 * due and charge them twice. The second run therefore steps back and is retried a little later, when
 * the first has marked the watches refreshed and they are no longer due.
 *
 * Across replicas: a session-level PostgreSQL advisory lock, tried, never waited for. Inside one
 * process: a set of running products (PGlite has one session, in which advisory locks are re-entrant).
 * Both are store/run-lock.ts.
 */
import type { DomainCode } from '../model.js';
import type { Database } from '../store/index.js';
import { createRunLock } from '../store/run-lock.js';

/** The first key of the two-key advisory lock: the watcher's product runs ("wrun"). */
const LOCK_SPACE = 0x7772756e;

export type ProductRunLock = <T>(domain: DomainCode, asin: string, work: () => Promise<T>) => Promise<{ ran: true; value: T } | { ran: false }>;

export function createProductRunLock(db: Database): ProductRunLock {
  const lock = createRunLock(db, LOCK_SPACE);
  return (domain, asin, work) => lock(`${domain}:${asin}`, work);
}
