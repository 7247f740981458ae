/**
 * The refresh processor under the in-memory job twin (timers the test moves): a failed read is
 * retried on the refresh queue's schedule and never charged; schedules follow the active watches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeteringInstance } from '@retail/metering';
import { createMemoryJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import {
  createRefreshProcessor, REFRESH_QUEUE, REFRESH_RETRY_DELAYS_MS, syncAllSchedules, syncProductSchedule,
} from '../../../watcher/src/refresh/index.js';
import type { WatchStore } from '../../../watcher/src/store/index.js';
import { fakeTimers } from '../../queue/fake-timers.js';
import { balanceOf, HOUR, newAsin, newWatch, openTestMetering, openTestStore, PRICE_STORY, recordingQueue, scriptedReader, START } from './fixtures.js';

let store: WatchStore;
let metering: MeteringInstance;

beforeAll(async () => {
  ({ store } = await openTestStore());
  ({ metering } = await openTestMetering());
}, 60_000);

afterAll(async () => {
  await metering?.close();
  await store?.close();
});

describe('refresh runs on the job system', () => {
  let jobs: JobSystem | undefined;
  afterAll(async () => jobs?.close());

  it('retries a read that failed for a reason that passes, charging only the attempt that succeeded', async () => {
    const time = fakeTimers(START);
    jobs = createMemoryJobSystem({ timers: time.timers });
    const { accountId } = await metering.admin.createAccount({ units: 5 });
    const asin = newAsin();
    const watch = await newWatch(store, accountId, asin);
    const reader = scriptedReader([{ kind: 'failed', retryable: true, reason: '503 breaker open' }, PRICE_STORY[0]!]);
    const failures: string[] = [];
    jobs.work(REFRESH_QUEUE, async (run) => {
      try {
        await createRefreshProcessor({ store, meter: metering.meter, reader, deliveries: recordingQueue() })(run);
      } catch (error) {
        failures.push((error as Error).name);
        throw error;
      }
    }, { concurrency: 1 });
    await jobs.queue(REFRESH_QUEUE).add({ domain: 'US', asin }, { id: `US:${asin}:first` });

    await time.advance(0);
    expect(failures).toEqual(['RetryableRefreshError']);
    expect(await balanceOf(metering, accountId)).toBe(5);
    expect((await store.watches.get(accountId, watch.id))?.lastRefreshAt).toBeUndefined();

    await time.advance(REFRESH_RETRY_DELAYS_MS[0]!);
    expect(reader.reads()).toBe(2);
    expect(await balanceOf(metering, accountId)).toBe(4);
    // The run's time is its due time, the same on the retry.
    expect((await store.watches.get(accountId, watch.id))?.lastRefreshAt?.getTime()).toBe(START);
  });
});

describe('schedule sync', () => {
  it('runs each product at the smallest interval of its active watches and drops the schedule when none is left', async () => {
    const jobs = createMemoryJobSystem();
    try {
      const refreshes = jobs.queue(REFRESH_QUEUE);
      const { accountId } = await metering.admin.createAccount({ units: 5 });
      const asin = newAsin();
      const daily = await newWatch(store, accountId, asin, { intervalSeconds: 86_400 });
      const quarterHourly = await newWatch(store, accountId, asin, { intervalSeconds: 900 });
      expect(await syncAllSchedules(store, refreshes)).toBeGreaterThanOrEqual(1);
      expect(await refreshes.getSchedule(`US:${asin}`)).toMatchObject({ everyMs: 900_000 });

      await store.watches.pause(accountId, 'USER', [quarterHourly.id]);
      await syncProductSchedule(store, refreshes, { domain: 'US', asin });
      expect(await refreshes.getSchedule(`US:${asin}`)).toMatchObject({ everyMs: 86_400_000 });

      await store.watches.delete(accountId, daily.id);
      expect(await syncProductSchedule(store, refreshes, { domain: 'US', asin })).toBe(false);
      expect(await refreshes.getSchedule(`US:${asin}`)).toBeUndefined();
    } finally {
      await jobs.close();
    }
  });

  it('lets a run that finds no active watch remove its product schedule', async () => {
    const jobs = createMemoryJobSystem();
    try {
      const refreshes = jobs.queue(REFRESH_QUEUE);
      const asin = newAsin();
      await refreshes.upsertSchedule(`US:${asin}`, { everyMs: HOUR }, { domain: 'US', asin });
      const reader = scriptedReader(PRICE_STORY);
      const refresh = createRefreshProcessor({ store, meter: metering.meter, reader, deliveries: recordingQueue(), refreshes });
      await refresh({ id: `US:${asin}:${START}`, data: { domain: 'US', asin }, attempt: 1, maxAttempts: 4, dueAt: START });
      expect(await refreshes.getSchedule(`US:${asin}`)).toBeUndefined();
      expect(reader.reads()).toBe(0);
    } finally {
      await jobs.close();
    }
  });
});
