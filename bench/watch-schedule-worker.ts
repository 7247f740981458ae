/**
 * One watcher worker process of bench/watch-schedule.ts (started with `fork`, configured by the
 * environment in watch-schedule-protocol.ts).
 *
 * It mirrors the production composition of the watcher's workers (watcher/src/workers/
 * startWatcherWorkers, written at the same time as this benchmark, so not imported here): the job
 * system from the environment (BullMQ), the store on PostgreSQL, metering on the ledger Redis, the
 * snapshot reader over the core's gRPC API, every product's schedule reconciled at start, and the
 * refresh processor working REFRESH_QUEUE. Only the measuring is the benchmark's own: each run's
 * start is timed against its due time, and every read is attributed to its run (product and slot).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createCoreClient } from '@retail/gateway-shared';
import { createMeteringFromEnv, type Meter } from '@retail/metering';
import { createJobSystemFromEnv, type JobRun } from '../watcher/src/queue/index.js';
import {
  createCoreSnapshotReader, createRefreshProcessor, DELIVERY_QUEUE, REFRESH_QUEUE, syncAllSchedules, type RefreshJob, type SnapshotReader,
} from '../watcher/src/refresh/index.js';
import { createPostgresDatabase, openWatchStore } from '../watcher/src/store/index.js';
import type { FromWorker, ReadOfRun, RunStart, ToWorker, WorkerEnvironment } from './watch-schedule-protocol.js';

const env = process.env as unknown as WorkerEnvironment;
const send = (message: FromWorker) => process.send!(message);
const concurrency = Number(env.REFRESH_CONCURRENCY);

// Each running refresh holds one pooled connection for its product lock (product-run-lock.ts) and
// needs another for its queries: a pool no larger than the concurrency can deadlock.
const store = await openWatchStore(createPostgresDatabase({ connectionString: env.DATABASE_URL, maxConnections: 2 * concurrency + 2 }));
const jobs = await createJobSystemFromEnv(process.env);
const metering = await createMeteringFromEnv(process.env);
const core = createCoreClient({ address: env.CORE_ADDRESS, serviceToken: env.CORE_SERVICE_TOKEN, deadlineMs: 10_000 });

let runs: RunStart[] = [];
let reads: ReadOfRun[] = [];
let completed = 0;
let failures: Record<string, number> = {};
let markedAt = { wall: Date.now(), cpu: process.cpuUsage() };
const totals = { pid: process.pid, reads: 0, unitsCharged: 0 };

const currentRun = new AsyncLocalStorage<JobRun<RefreshJob>>();
const coreReader = createCoreSnapshotReader(core, { requestIdPrefix: `bench-${process.pid}` });
const countingReader: SnapshotReader = {
  read(domain, asin, signal) {
    const run = currentRun.getStore();
    reads.push([asin, run?.dueAt ?? -1]);
    totals.reads += 1;
    return coreReader.read(domain, asin, signal);
  },
};
const countingMeter: Pick<Meter, 'admitAccount' | 'settle'> = {
  admitAccount: (request) => metering.meter.admitAccount(request),
  async settle(...args: Parameters<Meter['settle']>) {
    const settled = await metering.meter.settle(...args);
    totals.unitsCharged += settled.charged;
    return settled;
  },
};

const refreshes = jobs.queue(REFRESH_QUEUE);
const refreshProduct = createRefreshProcessor({
  store, meter: countingMeter, reader: countingReader, deliveries: jobs.queue(DELIVERY_QUEUE), refreshes,
  log: (line) => console.error(`[worker ${process.pid}] ${line}`),
});

const syncStarted = Date.now();
const schedulesSynced = await syncAllSchedules(store, refreshes);
const syncMs = Date.now() - syncStarted;

const worker = jobs.work(REFRESH_QUEUE, async (run) => {
  const startedAt = Date.now();
  try {
    await currentRun.run(run, () => refreshProduct(run));
    completed += 1;
  } catch (error) {
    const key = `${(error as Error).name}: ${(error as Error).message.replace(/^refresh \S+: /, '')}`;
    failures[key] = (failures[key] ?? 0) + 1;
    throw error;
  } finally {
    runs.push([run.data.asin, run.dueAt, run.attempt, startedAt - run.dueAt, Date.now() - startedAt]);
  }
}, { concurrency });

process.on('message', (message: ToWorker) => {
  if (message.type === 'mark') {
    runs = [];
    reads = [];
    completed = 0;
    failures = {};
    markedAt = { wall: Date.now(), cpu: process.cpuUsage() };
  } else if (message.type === 'report') {
    const cpu = process.cpuUsage(markedAt.cpu);
    send({ type: 'report', report: { pid: process.pid, cpuUs: cpu.user + cpu.system, spanMs: Date.now() - markedAt.wall, runs, reads, completed, failures } });
  } else if (message.type === 'stop') {
    void stop();
  }
});

async function stop(): Promise<void> {
  await worker.close(); // lets running refreshes finish, so the totals cover whole runs
  await jobs.close();
  await metering.close();
  await store.close();
  // The core client's HTTP/2 session may keep the loop alive: exit once the totals are sent.
  process.send!({ type: 'stopped', totals } satisfies FromWorker, () => process.exit(0));
}

send({ type: 'ready', schedulesSynced, syncMs });
