/**
 * CPU the benchmark's servers spend, so bench/watch-schedule.ts can say what a refresh costs the
 * whole machine and not only the worker processes: PostgreSQL's backends serving the benchmark's
 * database (from /proc, by the pids pg_stat_activity names) and the Redis server (INFO cpu).
 */
import { Redis } from 'ioredis';
import type { Queryable } from '../watcher/src/store/index.js';
import { processCpuUs } from './stub-core.js';

/** CPU so far of every backend connected to `database`, µs by pid. */
export async function postgresBackendsCpu(db: Queryable, database: string): Promise<Map<number, number>> {
  const rows = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  return new Map(rows.flatMap(({ pid }) => {
    const us = processCpuUs(pid);
    return us === undefined ? [] : [[pid, us] as const];
  }));
}

/**
 * CPU the backends used between two readings. Backends that ended in between are missed (the
 * workers' pools keep their connections while busy), so this is a lower bound.
 */
export function backendsCpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, us] of after) total += us - (before.get(pid) ?? 0);
  return total;
}

/** The Redis server's own CPU so far (user + system), µs. */
export async function redisCpuUs(url: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    const info = await redis.info('cpu');
    const field = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? NaN);
    return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
  } finally {
    redis.disconnect();
  }
}
