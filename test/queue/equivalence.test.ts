/**
 * Model check of the schedule bookkeeping: random sequences of upserts (same or new interval, new
 * data), removals and reads give the same answers on the in-memory twin and on BullMQ, step by step.
 * Intervals are hours, so "now" moving by milliseconds between the two never changes a slot.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullJobSystem, createMemoryJobSystem, defineQueue, type JobQueue, type JobSystem } from '../../watcher/src/queue/index.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

type Command =
  | { kind: 'upsert'; schedule: number; hours: number; label: string }
  | { kind: 'remove'; schedule: number }
  | { kind: 'get'; schedule: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('upsert' as const), schedule: fc.nat(3), hours: fc.constantFrom(1, 2, 24), label: fc.constantFrom('a', 'b') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), schedule: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('get' as const), schedule: fc.nat(3) }) },
);

async function drive(queue: JobQueue<{ label: string }>, commands: Command[]): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const c of commands) {
    const id = `US:B0MODEL${c.schedule}`;
    if (c.kind === 'upsert') seen.push(await queue.upsertSchedule(id, { everyMs: c.hours * 3_600_000 }, { label: c.label }));
    else if (c.kind === 'remove') seen.push(await queue.removeSchedule(id));
    else seen.push((await queue.getSchedule(id)) ?? null);
  }
  return seen;
}

describe.skipIf(missing !== null)('in-memory twin and BullMQ agree on schedules', () => {
  let redis: RedisServer;
  let bull: JobSystem;
  let memory: JobSystem;
  beforeAll(async () => {
    redis = await startRedis();
    bull = await createBullJobSystem({ redisUrl: redis.url });
    memory = createMemoryJobSystem();
  });
  afterAll(async () => {
    await bull?.close();
    await memory?.close();
    await redis?.stop();
  });

  it('on random upsert, remove and read sequences', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 3, maxLength: 25 }), async (commands) => {
        const definition = defineQueue<{ label: string }>(`model-${++run}`);
        expect(await drive(bull.queue(definition), commands)).toEqual(await drive(memory.queue(definition), commands));
      }),
      { numRuns: 40 },
    );
  }, 30_000);
});
