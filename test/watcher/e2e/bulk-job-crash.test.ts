/**
 * A bulk job of 10,000 items end to end on real parts: real PostgreSQL, BullMQ on a real redis-server,
 * the ledger on that Redis, two watcher processes (`main.ts`, role worker) each with its own real core
 * reading the replay server, and an HTTPS receiver for the end webhook. One worker process is killed
 * with SIGKILL while the job runs; the other resumes its chunks once their locks expire.
 *
 * What must hold: every item has exactly one result, the job ends DONE with done = total, the units
 * the ledger charged equal the successful items exactly (none charged twice, none lost), no hold is
 * left, and the end webhook arrives once, verified with `standardwebhooks`.
 */
import { create } from '@bufbuild/protobuf';
import { BatchItemSchema, CreateJobRequestSchema, Domain, type BatchItem } from '@retail/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBullJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { createJobService, type JobServiceHandlers } from '../../../watcher/src/service/index.js';
import { postgresMissing } from '../../harness/postgres.js';
import { redisMissing } from '../../harness/redis.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';
import { openScenario, openWorld, TIMELINE_ASINS, until, watcherProcessEnv, type Scenario, type World } from './world.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const ITEMS = 10_000;
/** Every tenth item asks for a product the marketplace does not have: its result is NOT_FOUND, never charged. */
const isMissing = (index: number) => index % 10 === 9;
const item = (index: number): BatchItem => create(BatchItemSchema, {
  request: { case: 'product', value: { asin: isMissing(index) ? `B0NOPE${String(index % 1000).padStart(4, '0')}` : TIMELINE_ASINS[index % 8]!, domain: Domain.US } },
});

let world: World;
let scenario: Scenario;
let producer: JobSystem;
let service: JobServiceHandlers;
const processes: WorkerProcess[] = [];

beforeAll(async () => {
  if (missing) return;
  world = await openWorld();
  scenario = await openScenario(world, 3);
  producer = await createBullJobSystem({ redisUrl: scenario.queueRedisUrl });
  service = createJobService({ store: scenario.store, jobs: producer, webhooks: { policy: { allowPrivateTargets: true }, keyring: world.keyring }, chunkSize: 100 });
  const cores = await Promise.all([world.startCore(), world.startCore()]);
  processes.push(...(await Promise.all(cores.map((core) => startWorkerProcess({
    ...watcherProcessEnv(world, scenario, core),
    JOB_CONCURRENCY: '2',
    JOB_ITEM_CONCURRENCY: '8',
    CORE_DEADLINE_MS: '30000',
  })))));
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((process) => process.kill()));
  await producer?.close();
  await scenario?.close();
  await world?.close();
});

it.skipIf(missing !== null)('a 10,000-item job survives a worker killed mid-way: every item once, units charged = successes', async () => {
  const { accountId } = await world.metering.admin.createAccount({ units: ITEMS, plan: 'unlimited' });
  const context = { accountId, requestId: 'bulk-e2e', signal: new AbortController().signal };
  const url = `https://localhost:${world.receiver.port}/bulk-job-ended`;
  const created = (await service.createJob(create(CreateJobRequestSchema, {
    items: Array.from({ length: ITEMS }, (_, i) => item(i)), webhook: { url },
  }), context)).retailJob!;
  const jobId = created.id;
  const job = () => scenario.store.jobs.get(accountId, jobId);

  // Kill one worker once a fifth of the items are done, while chunks are running.
  await until(async () => ((await job())?.done ?? 0) >= ITEMS / 5, 'a fifth of the items', 90_000);
  const running = await scenario.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bulk_job_chunks WHERE job_id = $1 AND state IN ('RUNNING', 'SETTLING')`, [jobId]);
  processes[0]!.child.kill('SIGKILL');
  await processes[0]!.exited;
  expect(running[0]!.n).toBeGreaterThan(0);

  await until(async () => (await job())?.expiresAt !== undefined, 'the job to end', 120_000);
  const ended = (await job())!;
  const successes = ITEMS - ITEMS / 10;
  expect(ended).toMatchObject({ status: 'DONE', total: ITEMS, done: ITEMS, failed: ITEMS / 10, unitsCharged: successes });

  const [counts] = await scenario.store.db.query<{ rows: number; distinct: number; ok: number; lowest: number; highest: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT index)::int AS distinct, count(*) FILTER (WHERE ok)::int AS ok, min(index) AS lowest, max(index) AS highest
     FROM bulk_job_results WHERE job_id = $1`, [jobId]);
  expect(counts).toEqual({ rows: ITEMS, distinct: ITEMS, ok: successes, lowest: 0, highest: ITEMS - 1 });
  const chunks = await scenario.store.db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM bulk_job_chunks WHERE job_id = $1 GROUP BY state`, [jobId]);
  expect(chunks).toEqual([{ state: 'SETTLED', n: ITEMS / 100 }]);

  // The ledger: exactly the successes charged, nothing still held (each killed attempt's hold was settled by its re-run).
  await until(async () => (await world.metering.admin.summary(accountId)).balance === ITEMS - successes, 'the balance to settle', 10_000)
    .catch(() => undefined);
  expect((await world.metering.admin.summary(accountId)).balance).toBe(ITEMS - successes);

  await until(() => world.delivered.some((request) => request.url === '/bulk-job-ended'), 'the end webhook', 20_000);
  const deliveries = world.delivered.filter((request) => request.url === '/bulk-job-ended');
  expect(deliveries).toHaveLength(1);
  const payload = new Webhook(created.webhook!.secret!).verify(deliveries[0]!.body, deliveries[0]!.headers) as { job: Record<string, unknown> };
  expect(payload.job).toMatchObject({ id: jobId, status: 'DONE', done: ITEMS, unitsCharged: successes });
}, 300_000);
