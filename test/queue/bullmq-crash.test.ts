/**
 * A worker process killed with SIGKILL in the middle of a job: once its lock expires another
 * replica's stalled check puts the job back and that replica runs it again (at least once), and an
 * idempotent processor records its effect exactly once. The same holds for a scheduled run, and the
 * schedule goes on from the run after it, without a second copy of any run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullJobSystem, defineQueue, type JobRun } from '../../watcher/src/queue/index.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { writeEffectOnce } from './idempotent-effect.js';
import { until } from './job-system-suite.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const LOCK_DURATION_MS = 1_000;
const STALLED_INTERVAL_MS = 300;

function spawnCrashingWorker(redisUrl: string, queueName: string): { child: ChildProcess; lines: string[] } {
  const script = fileURLToPath(new URL('./crashing-worker.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script, redisUrl, queueName, String(LOCK_DURATION_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  return { child, lines };
}

describe.skipIf(missing !== null)('a BullMQ worker process killed mid-job', () => {
  let redis: RedisServer;
  let effects: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    effects = new Redis(redis.url);
  });
  afterAll(async () => {
    effects?.disconnect();
    await redis?.stop();
  });

  it('has its job run again on another replica after the lock expires, with one effect recorded', async () => {
    const definition = defineQueue<{ label: string }>('crash');
    const { child, lines } = spawnCrashingWorker(redis.url, definition.name);
    const survivor = await createBullJobSystem({ redisUrl: redis.url, lockDurationMs: LOCK_DURATION_MS, stalledIntervalMs: STALLED_INTERVAL_MS });
    try {
      await until(() => lines.includes('ready'), 15_000, 'the child worker to start');
      await survivor.queue(definition).add({ label: 'refresh' }, { id: 'US:B0CRASHED' });
      await until(() => lines.includes('effect written US:B0CRASHED'), 5_000, 'the child to write the effect');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();

      const reruns: Array<JobRun<{ label: string }> & { at: number }> = [];
      survivor.work(definition, async (run) => {
        reruns.push({ ...run, at: Date.now() });
        await writeEffectOnce(effects, definition.name, run.id);
      }, { concurrency: 1 });
      await until(() => reruns.length === 1, 10_000, 'the re-run on the surviving replica');
      const recoveryMs = reruns[0]!.at - killedAt;
      console.log(`[crash] job re-run ${recoveryMs} ms after SIGKILL (lock ${LOCK_DURATION_MS} ms, stalled check every ${STALLED_INTERVAL_MS} ms)`);
      expect(recoveryMs).toBeLessThan(LOCK_DURATION_MS + 3 * STALLED_INTERVAL_MS + 1_000);
      expect(reruns[0]).toMatchObject({ id: 'US:B0CRASHED', attempt: 1, data: { label: 'refresh' } });
      // Give a wrong second recovery the time to show itself.
      await new Promise((resolve) => setTimeout(resolve, LOCK_DURATION_MS + STALLED_INTERVAL_MS));
      expect(reruns).toHaveLength(1);
      expect(await effects.get(`${definition.name}:attempts:US:B0CRASHED`)).toBe('2');
      expect(await effects.get(`${definition.name}:effects`)).toBe('1');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await survivor.close();
    }
  }, 30_000);

  it('re-runs a scheduled run it was killed in once, and the schedule goes on without a duplicate', async () => {
    const definition = defineQueue<{ label: string }>('crash-scheduled');
    // Longer than the recovery (~1.5 s), so the re-run comes before the next slot.
    const everyMs = 3_000;
    const { child, lines } = spawnCrashingWorker(redis.url, definition.name);
    const survivor = await createBullJobSystem({ redisUrl: redis.url, lockDurationMs: LOCK_DURATION_MS, stalledIntervalMs: STALLED_INTERVAL_MS });
    try {
      await until(() => lines.includes('ready'), 15_000, 'the child worker to start');
      const { nextRunAt } = await survivor.queue(definition).upsertSchedule('US:B0SCHEDCRASH', { everyMs }, { label: 'refresh' });
      const killedRunId = `US:B0SCHEDCRASH:${nextRunAt}`;
      await until(() => lines.includes(`effect written ${killedRunId}`), everyMs + 5_000, 'the child to start the first run');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;

      const runs: string[] = [];
      survivor.work(definition, async (run) => {
        await writeEffectOnce(effects, definition.name, run.id);
        runs.push(run.id);
      }, { concurrency: 2 });
      await until(() => runs.length >= 3, 3 * everyMs + 5_000, 'the re-run and two more scheduled runs');
      expect(runs[0]).toBe(killedRunId);
      expect(runs.slice(1, 3)).toEqual([1, 2].map((n) => `US:B0SCHEDCRASH:${nextRunAt + n * everyMs}`));
      expect(new Set(runs).size).toBe(runs.length);
      expect(await effects.get(`${definition.name}:attempts:${killedRunId}`)).toBe('2');
      expect(await effects.get(`${definition.name}:effects`)).toBe(String(runs.length));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await survivor.close();
    }
  }, 30_000);
});
