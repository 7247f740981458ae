/**
 * The chunk processor's exactly-once rules at the moments a crash can hit, on a PGlite store, a real
 * memory ledger and a stand-in core: a crash (the process dies: the run stops with an exception there
 * and runs again with the same attempt number) after the hold, after the results, after the SETTLING
 * mark, after the settle reached the ledger; a run that comes back too late to repeat its settle; and
 * a retried attempt whose predecessor's successes are charged by it. In every case each item has
 * one result and the ledger charges each success at most once (exactly once but in the too-late case).
 */
import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { BatchLookupRequestSchema, GetProductResponseSchema } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { createMetering, type Meter, type MeteringInstance } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunkProcessor } from '../../../watcher/src/jobs/index.js';
import type { JobQueue, JobRun } from '../../../watcher/src/queue/index.js';
import { createPgliteDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { startStubCore, type StubCore } from '../../harness/stub-core.js';
import { productItem } from './fixtures.js';

const TOKEN = 'chunk-crash-token';
let store: WatchStore;
let metering: MeteringInstance;
let core: StubCore;
let now = Date.parse('2026-03-01T12:00:00Z');

beforeAll(async () => {
  store = await openWatchStore(await createPgliteDatabase(), { clock: () => new Date(now) });
  metering = await createMetering({ clock: () => now });
  core = await startStubCore({ serviceToken: TOKEN, handlers: { GetProduct: (r) => create(GetProductResponseSchema, { retailProduct: { asin: (r as unknown as { asin: string }).asin } }) } });
});
afterAll(async () => {
  await core?.close();
  await metering?.close();
  await store?.close();
});

/** These jobs have no webhook: nothing is ever queued here. */
const jobEnds = { add: async () => { throw new Error('no webhook to announce'); } } as unknown as JobQueue<{ jobId: string }>;

class Crash extends Error {}

/** A meter that "dies" at the chosen moment: before a settle is sent, or right after it reached the ledger. */
function crashingMeter(at: 'before-settle' | 'after-settle' | 'never'): Meter {
  const meter = metering.meter;
  let armed = at !== 'never';
  return {
    ...meter,
    admitAccount: (request) => meter.admitAccount(request),
    async settle(hold, succeeded, operations) {
      if (armed && succeeded > 0 && at === 'before-settle') {
        armed = false;
        throw new Crash('died before the settle');
      }
      const answer = await meter.settle(hold, succeeded, operations);
      if (armed && succeeded > 0 && at === 'after-settle') {
        armed = false;
        throw new Crash('died after the settle');
      }
      return answer;
    },
  };
}

async function newJob(units: number, size: number) {
  const { accountId } = await metering.admin.createAccount({ units, plan: 'unlimited' });
  const items = Array.from({ length: size }, (_, i) => productItem(`B0CRASH${String(i).padStart(3, '0')}`));
  const id = randomUUID();
  await store.jobs.create({ id, accountId, total: size, rejected: [], chunks: [{ indexes: items.map((_, i) => i), items: toBinary(BatchLookupRequestSchema, create(BatchLookupRequestSchema, { items })) }] });
  return { accountId, id };
}

const run = (jobId: string, attempt = 1): JobRun<{ jobId: string; chunk: number }> => ({ id: `${jobId}:0`, data: { jobId, chunk: 0 }, attempt, maxAttempts: 4, dueAt: now });

function processor(meter: Meter) {
  const coreClient = createCoreClient({ address: core.address, serviceToken: TOKEN });
  return createChunkProcessor({ store, meter, core: coreClient, jobEnds, now: () => new Date(now) });
}

const balance = async (accountId: string) => (await metering.admin.summary(accountId)).balance;

describe('a chunk run again after a crash', () => {
  it.each(['before-settle', 'after-settle'] as const)('crashed %s: the re-run settles the same hold, charging the chunk exactly once', async (moment) => {
    const { accountId, id } = await newJob(10, 5);
    await expect(processor(crashingMeter(moment))(run(id))).rejects.toThrow(Crash);
    expect((await store.jobs.get(accountId, id))?.done).toBe(5);
    await processor(crashingMeter('never'))(run(id));
    const job = await store.jobs.get(accountId, id);
    expect(job).toMatchObject({ status: 'DONE', done: 5, unitsCharged: 5 });
    expect(await balance(accountId)).toBe(5);
    // A third run of the same job id (a stalled duplicate) changes nothing.
    await processor(crashingMeter('never'))(run(id));
    expect(await balance(accountId)).toBe(5);
  });

  it('a re-run too late to repeat the settle safely records 0 charged and charges nothing twice', async () => {
    const { accountId, id } = await newJob(10, 4);
    await expect(processor(crashingMeter('after-settle'))(run(id))).rejects.toThrow(Crash);
    expect(await balance(accountId)).toBe(6);
    now += 60_000;
    await processor(crashingMeter('never'))(run(id));
    expect(await store.jobs.get(accountId, id)).toMatchObject({ status: 'DONE', done: 4, unitsCharged: 0 });
    expect(await balance(accountId)).toBe(6);
  });

  it('an attempt that failed after writing results leaves them to the next attempt, which charges them once', async () => {
    const { accountId, id } = await newJob(10, 3);
    // Attempt 1 writes its results, then dies before its SETTLING mark (the store fails under it).
    const broken = { ...store, jobChunks: { ...store.jobChunks, markSettling: async () => { throw new Crash('database gone'); } } } as WatchStore;
    const coreClient = createCoreClient({ address: core.address, serviceToken: TOKEN });
    await expect(createChunkProcessor({ store: broken, meter: metering.meter, core: coreClient, jobEnds })(run(id, 1))).rejects.toThrow(Crash);
    const calls = core.calls.length;
    // Attempt 2 (the queue's retry): nothing left to ask the core; the three successes are charged now.
    await processor(metering.meter)(run(id, 2));
    expect(core.calls.length).toBe(calls);
    expect(await store.jobs.get(accountId, id)).toMatchObject({ status: 'DONE', done: 3, unitsCharged: 3 });
    now += 120_000; // attempt 1's hold, never settled, has expired and returned
    expect(await balance(accountId)).toBe(7);
  });
});
