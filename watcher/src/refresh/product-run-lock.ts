/**
 * One run of a product at a time. Two runs of one product can overlap (a new watch's one-off first
 * refresh beside the scheduled run, a run slower than its interval): both would find the same watches
 * due and charge them twice. The second run therefore steps back and is retried a little later, when
 * the first has marked the watches refreshed and they are no longer due.
 *
 * Across replicas: a session-level PostgreSQL advisory lock, tried, never waited for. Inside one
 * process: a set of running products (PGlite has one session, in which advisory locks are re-entrant).
 */
import type { DomainCode } from '../model.js';
import type { Database } from '../store/index.js';

/** The first key of the two-key advisory lock: the watcher's product runs ("wrun"). */
const LOCK_SPACE = 0x7772756e;

export type ProductRunLock = <T>(domain: DomainCode, asin: string, work: () => Promise<T>) => Promise<{ ran: true; value: T } | { ran: false }>;

export function createProductRunLock(db: Database): ProductRunLock {
  const running = new Set<string>();
  return async (domain, asin, work) => {
    const product = `${domain}:${asin}`;
    if (running.has(product)) return { ran: false };
    running.add(product);
    try {
      return await db.session(async (session) => {
        const [row] = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked`, [LOCK_SPACE, product]);
        if (!row?.locked) return { ran: false as const };
        try {
          return { ran: true as const, value: await work() };
        } finally {
          await session.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [LOCK_SPACE, product]);
        }
      });
    } finally {
      running.delete(product);
    }
  };
}
