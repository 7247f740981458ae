import type { Redis } from 'ioredis';

/**
 * What an idempotent processor does: its effect is keyed by the run id, so a re-run after a crash
 * finds it done and adds nothing. Counts effects applied and attempts seen, per queue.
 */
export async function writeEffectOnce(redis: Redis, queueName: string, runId: string): Promise<void> {
  await redis.incr(`${queueName}:attempts:${runId}`);
  if ((await redis.set(`${queueName}:effect:${runId}`, '1', 'NX')) === 'OK') await redis.incr(`${queueName}:effects`);
}
