/**
 * The job system the environment asks for: BullMQ on QUEUE_REDIS_URL, else on the ledger's Redis
 * (LEDGER_REDIS_URL, else REDIS_URL; both roles are non-evicting), else the in-memory twin for the
 * one-process default. A Redis Cluster ledger alone is not used for queues (BullMQ needs its keys in
 * one slot, which the prefix does not give): such a deployment must set QUEUE_REDIS_URL.
 */
import { createBullJobSystem, type BullJobSystemOptions } from './bullmq-job-system.js';
import type { JobSystem } from './job-system.js';
import { createMemoryJobSystem } from './memory-job-system.js';

export function queueRedisUrl(env: Record<string, string | undefined>): string | undefined {
  return env.QUEUE_REDIS_URL || env.LEDGER_REDIS_URL || env.REDIS_URL || undefined;
}

export async function createJobSystemFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Omit<BullJobSystemOptions, 'redisUrl'>> = {},
): Promise<JobSystem> {
  const redisUrl = queueRedisUrl(env);
  if (redisUrl) return createBullJobSystem({ ...overrides, redisUrl });
  // Several replicas each with its own twin would each run every schedule: refuse instead.
  if (env.LEDGER_REDIS_CLUSTER) throw new Error('LEDGER_REDIS_CLUSTER is set but no queue Redis: set QUEUE_REDIS_URL to a non-evicting single-node Redis');
  return createMemoryJobSystem();
}
