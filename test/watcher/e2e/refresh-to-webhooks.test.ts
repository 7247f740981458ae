/**
 * The watcher end to end, every part real: PostgreSQL, redis-server with BullMQ, the real core reading
 * the replay server's time-varying product, the ledger on that Redis, and an HTTPS receiver verifying
 * each signature with the `standardwebhooks` library. Time is driven by the product's steps and
 * two-second intervals, never by long waits. Skips, saying so, without PostgreSQL or redis-server.
 */
import { createCoreClient } from '@retail/gateway-shared';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../../watcher/src/model.js';
import { createBullJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { createCoreSnapshotReader } from '../../../watcher/src/refresh/index.js';
import type { WatchStore } from '../../../watcher/src/store/index.js';
import { createWebhookSender } from '../../../watcher/src/webhooks/index.js';
import { RESUME_CHECK_QUEUE, startWatcherWorkers, type WatcherWorkers } from '../../../watcher/src/workers/index.js';
import { postgresMissing } from '../../harness/postgres.js';
import { redisMissing } from '../../harness/redis.js';
import { createReplayServer, type ReplayServer } from '../../replay/server.js';
import { TIMELINE_STATES } from '../../replay/timeline-page.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';
import { createWatch, deliveredTo, insertWatch, openScenario, scheduleProduct, openWorld, showsState, snapshotsOf, TIMELINE_ASINS, until, watcherProcessEnv, type Scenario, type World } from './world.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const INTERVAL_SECONDS = 2;

let world: World;
beforeAll(async () => {
  if (!missing) world = await openWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

async function eventTypes(store: WatchStore, accountId: string): Promise<EventType[]> {
  const events = (await store.events.list(accountId, { limit: 100 })).items;
  return [...events].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)).map((event) => event.type);
}

const unitsCharged = async (accountId: string) => (await world.metering.admin.recentUsage(accountId, 1000)).length;

/** Every delivery verified with the watch's secret by the Standard Webhooks library; the event ids in arrival order. */
function verifiedIds(watchId: string, secret: string): string[] {
  const verifier = new Webhook(secret);
  return deliveredTo(world, watchId).map(({ request }) => (verifier.verify(request.body, request.headers) as { id: string }).id);
}

describe.skipIf(missing !== null)('the watcher end to end, workers in this process', () => {
  let scenario: Scenario;
  let jobs: JobSystem;
  let workers: WatcherWorkers;

  beforeAll(async () => {
    scenario = await openScenario(world, 1);
    jobs = await createBullJobSystem({ redisUrl: scenario.queueRedisUrl });
    const core = await world.startCore();
    workers = await startWatcherWorkers({
      store: scenario.store,
      jobs,
      meter: world.metering.meter,
      accounts: world.metering.admin,
      reader: createCoreSnapshotReader(createCoreClient({ address: core.address, serviceToken: core.token })),
      webhookConfig: { policy: { allowPrivateTargets: true }, timeoutMs: 5_000 },
      secretBox: world.keyring,
      sender: createWebhookSender({ policy: { allowPrivateTargets: true }, trustedCa: world.certificate.cert }),
      log: () => undefined,
    });
  }, 60_000);
  afterAll(async () => {
    await workers?.stop();
    await jobs?.close();
    await scenario?.close();
  });

  it('fires each condition exactly once across 10 → 8 → out of stock → back → new seller, and a receiver that was down gets every event later, signed, in order', async () => {
    const { store } = scenario;
    const asin = TIMELINE_ASINS[0]!;
    const { accountId } = await world.metering.admin.createAccount({ units: 100 });
    world.receiverDown = true;
    const watch = await createWatch(world, store, jobs, {
      accountId,
      asin,
      intervalSeconds: INTERVAL_SECONDS,
      conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9 }, { type: 'OUT_OF_STOCK' }, { type: 'BACK_IN_STOCK' }, { type: 'BUYBOX_SELLER_CHANGED' }],
      webhook: true,
    });
    for (let position = 0; position < TIMELINE_STATES.length; position++) {
      if (position > 0) world.timeline.advance(asin);
      await until(async () => showsState((await snapshotsOf(store, asin)).at(-1), TIMELINE_STATES[position]!), `a snapshot of state ${position}`);
      // Down through the price drop and the stock-out: both events wait for the receiver.
      if (position === 2) {
        await until(() => world.receiver.received.some((request) => request.body.includes(watch.watchId)), 'a first, refused attempt');
        world.receiverDown = false;
      }
    }
    const expected: EventType[] = ['PRICE_AT_OR_BELOW', 'OUT_OF_STOCK', 'BACK_IN_STOCK', 'BUYBOX_SELLER_CHANGED'];
    await until(async () => (await store.deliveries.listForWatch(accountId, watch.watchId, { limit: 100 })).items.filter((row) => row.status === 'DELIVERED').length === expected.length, 'every delivery', 45_000);

    expect(await eventTypes(store, accountId)).toEqual(expected);
    const events = (await store.events.list(accountId, { limit: 100 })).items.map((event) => event.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(verifiedIds(watch.watchId, watch.secret)).toEqual(events);
    const attempts = world.receiver.received.filter((request) => request.body.includes(watch.watchId)).length;
    expect(attempts).toBeGreaterThan(events.length);
    expect(await unitsCharged(accountId)).toBe((await snapshotsOf(store, asin)).length);
  }, 80_000);

  it('pauses a watch whose account ran out of units (with an event), and resumes it when units are granted', async () => {
    const { store } = scenario;
    const asin = TIMELINE_ASINS[1]!;
    const { accountId } = await world.metering.admin.createAccount({ units: 2 });
    const watch = await createWatch(world, store, jobs, { accountId, asin, intervalSeconds: INTERVAL_SECONDS, conditions: [], webhook: true });
    // The event is appended first, then the watch paused (lifecycle-events.ts): wait for both.
    await until(async () => (await store.watches.get(accountId, watch.watchId))?.status === 'PAUSED', 'the pause');
    expect(await eventTypes(store, accountId)).toEqual(['WATCH_PAUSED']);
    expect(await store.watches.get(accountId, watch.watchId)).toMatchObject({ pausedReason: 'INSUFFICIENT_UNITS' });
    expect((await snapshotsOf(store, asin)).length).toBe(2);

    await world.metering.admin.grantUnits(accountId, 3);
    // The minutely resume check, run now instead of waiting for its slot.
    await jobs.queue(RESUME_CHECK_QUEUE).add({}, { id: 'resume-check-now' });
    await until(async () => (await eventTypes(store, accountId)).length === 3, 'the resume, three refreshes and the second pause');

    expect(await eventTypes(store, accountId)).toEqual(['WATCH_PAUSED', 'WATCH_RESUMED', 'WATCH_PAUSED']);
    expect((await snapshotsOf(store, asin)).length).toBe(5);
    expect(await unitsCharged(accountId)).toBe(5);
    expect((await world.metering.admin.summary(accountId)).balance).toBe(0);
    await until(() => deliveredTo(world, watch.watchId).length === 3, 'the three lifecycle webhooks');
    expect(deliveredTo(world, watch.watchId).map(({ body }) => body.type)).toEqual(['WATCH_PAUSED', 'WATCH_RESUMED', 'WATCH_PAUSED']);
  }, 60_000);
});

/** The environment of a real watcher worker process in `scenario`, reading through `coreAddress`. */
const workerEnv = (scenario: Scenario, core: { address: string; token: string }) => watcherProcessEnv(world, scenario, core);

describe.skipIf(missing !== null)('the watcher end to end, as two worker processes', () => {
  let scenario: Scenario;
  let producer: JobSystem;
  // Each process reads through its own core and its own replay port: a run done twice would be
  // fetched twice, and every fetch says which process made it.
  const replays: ReplayServer[] = [];
  const processes: WorkerProcess[] = [];

  beforeAll(async () => {
    scenario = await openScenario(world, 2);
    producer = await createBullJobSystem({ redisUrl: scenario.queueRedisUrl });
    replays.push(world.replay, await createReplayServer({ corpusDirs: [], timeline: world.timeline, faults: (request) => void world.onFetch?.(request, 1) }));
    const cores = await Promise.all(replays.map((replay) => world.startCore(replay.origin)));
    processes.push(...(await Promise.all(cores.map((core) => startWorkerProcess(workerEnv(scenario, core))))));
  }, 60_000);
  afterAll(async () => {
    world.onFetch = undefined;
    await Promise.all(processes.map((process) => process.kill()));
    await replays[1]?.close();
    await producer?.close();
    await scenario?.close();
  });

  const fetchesIn = (replay: ReplayServer, asin: string) => replay.requests.filter((request) => request.path === `/dp/${asin}`).length;
  const fetches = (asin: string) => replays.reduce((sum, replay) => sum + fetchesIn(replay, asin), 0);

  it('answers its probes: alive, and ready when PostgreSQL, Redis and the ledger answer', async () => {
    for (const process of processes) {
      const port = /probes on :(\d+)/.exec(process.lines.join('\n'))?.[1];
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toEqual({ status: 'ready' });
    }
  });

  it('runs each refresh once with the two competing: one fetch per product per run, one unit per watch per run', async () => {
    const { store } = scenario;
    const products = TIMELINE_ASINS.slice(2, 6);
    const { accountId: all } = await world.metering.admin.createAccount({ units: 1000 });
    const { accountId: some } = await world.metering.admin.createAccount({ units: 1000 });
    // The rows first, then the schedules: both accounts' watches of a product are due from its first run.
    const watches = [];
    for (const asin of products) watches.push(await insertWatch(world, store, { accountId: all, asin, intervalSeconds: INTERVAL_SECONDS, conditions: [] }));
    for (const asin of products.slice(0, 2)) watches.push(await insertWatch(world, store, { accountId: some, asin, intervalSeconds: INTERVAL_SECONDS, conditions: [] }));
    const startedAt = Date.now();
    for (const asin of products) await scheduleProduct(store, producer, asin);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    // Deleting the watches ends the schedules; the runs under way finish before counting.
    for (const watch of watches) await store.watches.delete(watch.accountId, watch.watchId);
    const elapsedRuns = (Date.now() - startedAt) / (INTERVAL_SECONDS * 1000);
    await new Promise((resolve) => setTimeout(resolve, 2 * INTERVAL_SECONDS * 1000));

    const runs = new Map<string, number>();
    for (const asin of products) {
      const snapshots = (await snapshotsOf(store, asin)).length;
      runs.set(asin, snapshots);
      expect(fetches(asin), asin).toBe(snapshots);
      expect(snapshots, asin).toBeGreaterThanOrEqual(Math.floor(elapsedRuns) - 1);
      expect(snapshots, asin).toBeLessThanOrEqual(Math.ceil(elapsedRuns) + 1);
    }
    for (const replay of replays) expect(products.some((asin) => fetchesIn(replay, asin) > 0)).toBe(true);
    const sum = (asins: string[]) => asins.reduce((total, asin) => total + runs.get(asin)!, 0);
    // The watches are deleted `all`'s first: a run of one of the two shared products that reads its
    // due watches between the two deletions stores a snapshot and charges only `some` (a deleted
    // watch is not charged), so `all` may be one unit short per shared product, never over.
    const shared = products.slice(0, 2);
    expect(await unitsCharged(all)).toBeLessThanOrEqual(sum(products));
    expect(await unitsCharged(all)).toBeGreaterThanOrEqual(sum(products) - shared.length);
    expect(await unitsCharged(some)).toBe(sum(shared));
  }, 60_000);

  it('loses no event and charges no unit twice when one is killed (SIGKILL) in the middle of a refresh', async () => {
    const { store } = scenario;
    const asin = TIMELINE_ASINS[6]!;
    const { accountId } = await world.metering.admin.createAccount({ units: 100 });
    const watch = await createWatch(world, store, producer, { accountId, asin, intervalSeconds: INTERVAL_SECONDS, conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9 }], webhook: true });
    await until(async () => showsState((await snapshotsOf(store, asin)).at(-1), TIMELINE_STATES[0]!), 'the first snapshot');

    // The price drops; the process whose run asks the marketplace for the page dies at that moment.
    const before = (await snapshotsOf(store, asin)).length;
    let victim: WorkerProcess | undefined;
    world.onFetch = (request, server) => {
      if (request.path !== `/dp/${asin}` || victim) return;
      victim = processes[server]!;
      victim.child.kill('SIGKILL');
    };
    world.timeline.advance(asin);
    await until(() => victim !== undefined, 'the refresh to fetch the page');
    await victim!.exited;
    world.onFetch = undefined;
    expect((await snapshotsOf(store, asin)).length).toBe(before);

    // The other process runs the product from now on (and the killed run again once its lock expires).
    await until(() => deliveredTo(world, watch.watchId).length === 1, 'the price event, delivered');
    await new Promise((resolve) => setTimeout(resolve, 2 * INTERVAL_SECONDS * 1000)); // more runs: nothing more may arrive
    await store.watches.pause(accountId, 'USER', [watch.watchId]); // its schedule ends; its events stay
    const survivor = processes.find((process) => process !== victim)!;
    expect(await survivor.stop()).toBe(0);

    expect(await eventTypes(store, accountId)).toEqual(['PRICE_AT_OR_BELOW']);
    const [event] = (await store.events.list(accountId, { limit: 10 })).items;
    expect(verifiedIds(watch.watchId, watch.secret)).toEqual([event!.id]);
    // Every stored run was charged once, the killed one (run again by the survivor, or served by the
    // next run) included; its hold, never settled, only returns to the balance.
    const snapshots = await snapshotsOf(store, asin);
    expect(snapshots.filter((snapshot) => showsState(snapshot, TIMELINE_STATES[1]!)).length).toBeGreaterThan(0);
    expect(await unitsCharged(accountId)).toBe(snapshots.length);
  }, 60_000);
});
