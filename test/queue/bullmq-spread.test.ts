/**
 * 10,000 schedules created at once (10,000 watches added in one minute) must not all come due
 * together: each takes its id's phase inside the interval. Measured on BullMQ: the due times of
 * 10,000 one-minute schedules, and the start times of 1,000 short schedules actually run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullJobSystem, defineQueue, type JobSystem } from '../../watcher/src/queue/index.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { until } from './job-system-suite.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

/** Counts of `values` (offsets in [0, span)) in `buckets` equal slices of the span. */
function histogram(values: number[], span: number, buckets: number): number[] {
  const counts = new Array<number>(buckets).fill(0);
  for (const value of values) counts[Math.min(buckets - 1, Math.floor((value / span) * buckets))]!++;
  return counts;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function upsertAll(system: JobSystem, queueName: string, count: number, everyMs: number): Promise<number[]> {
  const queue = system.queue(defineQueue<{ asin: string }>(queueName));
  const nextRuns: number[] = [];
  for (let start = 0; start < count; start += 500) {
    const chunk = Array.from({ length: Math.min(500, count - start) }, (_, i) => `B0${String(start + i).padStart(8, '0')}`);
    nextRuns.push(...(await Promise.all(chunk.map((asin) => queue.upsertSchedule(`US:${asin}`, { everyMs }, { asin })))).map((s) => s.nextRunAt));
  }
  return nextRuns;
}

describe.skipIf(missing !== null)('schedules created at once on BullMQ', () => {
  let redis: RedisServer;
  let system: JobSystem;
  beforeAll(async () => {
    redis = await startRedis();
    system = await createBullJobSystem({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await system?.close();
    await redis?.stop();
  });

  it('spread 10,000 one-minute schedules evenly over the minute after their creation', async () => {
    const everyMs = 60_000;
    const createdFrom = Date.now();
    const nextRuns = await upsertAll(system, 'spread-due', 10_000, everyMs);
    const createdTo = Date.now();
    // Every first run is due within one interval of its creation, none at the creation instant.
    for (const at of nextRuns) {
      expect(at).toBeGreaterThan(createdFrom);
      expect(at).toBeLessThanOrEqual(createdTo + everyMs);
    }
    const counts = histogram(nextRuns.map((at) => (at - createdFrom) % everyMs), everyMs, 10);
    console.log(`[spread] 10,000 upserts in ${createdTo - createdFrom} ms; first runs per 6 s slice of the minute: ${counts.join(' ')}`);
    // Uniform: 1,000 per slice, binomial standard deviation ≈ 30; a clustered schedule fails by far.
    for (const count of counts) expect(Math.abs(count - 1_000)).toBeLessThan(150);
    const perSecond = histogram(nextRuns.map((at) => (at - createdFrom) % everyMs), everyMs, 60);
    console.log(`[spread] busiest second ${Math.max(...perSecond)} runs, quietest ${Math.min(...perSecond)} (mean 167)`);
    expect(Math.max(...perSecond)).toBeLessThan(300);
  }, 60_000);

  it('runs 1,000 schedules of 3 s spread over the interval, each once, with a small lag', async () => {
    const everyMs = 3_000;
    const definition = defineQueue<{ asin: string }>('spread-runs');
    const starts: Array<{ id: string; dueAt: number; at: number }> = [];
    system.work(definition, async (run) => void starts.push({ id: run.id, dueAt: run.dueAt, at: Date.now() }), { concurrency: 20 });
    const createdFrom = Date.now();
    await upsertAll(system, definition.name, 1_000, everyMs);
    const createdTo = Date.now();
    const firstDue = new Map<string, number>();
    const scheduleOf = (runId: string) => runId.slice(0, runId.lastIndexOf(':'));
    await until(() => {
      for (const start of starts) if (!firstDue.has(scheduleOf(start.id))) firstDue.set(scheduleOf(start.id), start.dueAt);
      return firstDue.size === 1_000;
    }, everyMs + 5_000, 'a first run of every schedule');
    expect(new Set(starts.map((start) => start.id)).size).toBe(starts.length);
    for (const dueAt of firstDue.values()) {
      expect(dueAt).toBeGreaterThan(createdFrom);
      expect(dueAt).toBeLessThanOrEqual(createdTo + everyMs);
    }
    const lags = starts.map((start) => start.at - start.dueAt).sort((a, b) => a - b);
    const counts = histogram([...firstDue.values()].map((dueAt) => (dueAt - createdFrom) % everyMs), everyMs, 6);
    console.log(`[spread] 1,000 schedules of 3 s (created in ${createdTo - createdFrom} ms): first runs per 0.5 s slice ${counts.join(' ')}; ` +
      `lag from due time to start over ${starts.length} runs: p50 ${percentile(lags, 50)} ms, p95 ${percentile(lags, 95)} ms, max ${lags.at(-1)} ms`);
    for (const count of counts) expect(Math.abs(count - 167)).toBeLessThan(80);
  }, 60_000);
});
