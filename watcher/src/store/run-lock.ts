/**
 * One run of a thing at a time, across replicas and inside one process: a session-level PostgreSQL
 * advisory lock, tried, never waited for, held on one pooled connection for the run and released by
 * PostgreSQL if the holder's connection dies; plus a set of running keys, because PGlite has one
 * session, in which advisory locks are re-entrant. The refreshes' product runs and re-parsing's job
 * runs each use their own lock space.
 */
import type { Database } from '@retail/database';

export type RunLock = <T>(key: string, work: () => Promise<T>) => Promise<{ ran: true; value: T } | { ran: false }>;

/** `space`: the first key of the two-key advisory lock, one per kind of run (four ASCII letters). */
export function createRunLock(db: Database, space: number): RunLock {
  const running = new Set<string>();
  return async (key, work) => {
    if (running.has(key)) return { ran: false };
    running.add(key);
    try {
      return await db.session(async (session) => {
        const [row] = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked`, [space, key]);
        if (!row?.locked) return { ran: false as const };
        try {
          return { ran: true as const, value: await work() };
        } finally {
          await session.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [space, key]);
        }
      });
    } finally {
      running.delete(key);
    }
  };
}
