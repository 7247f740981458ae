/**
 * The queue's Redis must never evict: an evicted job or scheduler key is a refresh or a webhook
 * delivery lost without a trace. Checked at start from INFO (CONFIG is often disabled on managed Redis).
 */
import type { Redis } from 'ioredis';
import { withTimeout } from './with-timeout.js';

/** The server's maxmemory-policy, or undefined when it cannot be read (down, or INFO refused). */
export async function maxmemoryPolicy(client: Redis): Promise<string | undefined> {
  try {
    const info = await withTimeout(client.info('memory'), 3_000, '');
    return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  } catch {
    return undefined;
  }
}

export type EvictingRedis = 'refuse' | 'warn';

/** Throws (or warns) when the policy evicts; warns when it cannot be read. */
export async function checkNonEvicting(client: Redis, onEvicting: EvictingRedis, warn: (message: string) => void): Promise<void> {
  const policy = await maxmemoryPolicy(client);
  if (policy === undefined) {
    warn('could not read the queue Redis maxmemory-policy; it must be noeviction or jobs can be lost');
    return;
  }
  if (policy === 'noeviction') return;
  const message =
    `the queue Redis evicts keys (maxmemory-policy ${policy}): jobs and schedules would be lost silently. ` +
    'Set maxmemory-policy noeviction, or point QUEUE_REDIS_URL at a non-evicting Redis (the ledger role is one).';
  if (onEvicting === 'refuse') throw new Error(message);
  warn(message);
}
