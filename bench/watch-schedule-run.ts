/**
 * The scheduling benchmark of issue 14, as a function (bench/watch-schedule.ts prints it; the smoke
 * test runs it small): N watches due in every interval, refreshed by watcher worker processes on
 * real Redis (BullMQ + the ledger) and real PostgreSQL, reading through a core over gRPC (the stub
 * core process: the real core's server answering from memory, so the marketplace costs nothing).
 *
 * Phases run one after the other, each with its own fleet of worker processes (default: one, then
 * two) on its own Redis, database and watches: the one-process phase is the baseline the
 * two-process phase is read against. Each phase: create the watches, start the workers (each
 * reconciles every schedule at start, as a replica does), warm up, then take every slot due in a
 * window of whole intervals and count. The stub core process is shared.
 */
import { loadavg } from 'node:os';
import { createMeteringFromEnv, type MeteringInstance } from '@retail/metering';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../watcher/src/store/index.js';
import { createTestDatabase, type TestDatabase } from '../test/harness/postgres.js';
import { startRedis, type RedisServer } from '../test/harness/redis.js';
import { SERVICE_TOKEN } from '../test/harness/stack.js';
import { processCpuUs, startStubCoreProcess, type StubCoreProcess } from './stub-core.js';
import { backendsCpuBetween, postgresBackendsCpu, redisCpuUs } from './watch-schedule-cpu.js';
import { startWorkerFleet, type WorkerFleet } from './watch-schedule-fleet.js';
import type { WorkerEnvironment } from './watch-schedule-protocol.js';
import { createWatches, type CreatedWatches, type WatchPlan } from './watch-schedule-setup.js';
import { spanStats, type SpanStats } from './watch-schedule-stats.js';

export interface ScheduleBenchOptions extends WatchPlan {
  /** Intervals measured per phase. */
  readonly intervals: number;
  /** Worker processes of each phase, in order (default [1, 2]). */
  readonly phases: readonly number[];
  readonly concurrency: number;
  /** Time between the workers being ready and the measured window. */
  readonly warmupMs: number;
  /** Time after the window for its last slots to start and finish. */
  readonly graceMs: number;
  readonly log?: (line: string) => void;
}

export interface PhaseResult {
  readonly workers: number;
  readonly setup: CreatedWatches & { readonly createMs: number };
  readonly schedulesSyncedMs: readonly number[];
  readonly stats: SpanStats;
  /** The stub core's CPU over the span ÷ the refreshes (each refresh is GetProduct + GetSalesEstimate). */
  readonly coreCpuUsPerRefresh: number;
  /** PostgreSQL's backends of the database (a lower bound) and the Redis server, over the span ÷ the refreshes. */
  readonly postgresCpuUsPerRefresh: number;
  readonly redisCpuUsPerRefresh: number;
  readonly loadAverage: readonly number[];
  /** Units the ledger charged (granted − balances) and units the workers' settles said they charged. */
  readonly unitsCharged: { readonly ledger: number; readonly workers: number };
  /** Snapshot rows in PostgreSQL and reads the workers made: equal when every read was stored once. */
  readonly snapshots: { readonly rows: number; readonly reads: number };
}

/** The product every GetProduct answers (the core's cache-hit path; price 19.99 never meets the condition). */
const STUB_PRODUCT = {
  asin: 'B000000001', title: 'Bench kettle', price: { value: 19.99, currency: 'USD', symbol: '$' }, isInStock: true,
  seller: { sellerId: 'ATVPDKIKX0DER', name: 'Amazon.com' }, rating: 4.5, ratingsTotal: 1234,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runScheduleBench(options: ScheduleBenchOptions): Promise<PhaseResult[]> {
  const core = await startStubCoreProcess(STUB_PRODUCT);
  try {
    const phases: PhaseResult[] = [];
    for (const workers of options.phases) phases.push(await runPhase(workers, options, core));
    return phases;
  } finally {
    await core.stop();
  }
}

/**
 * One phase in a fresh Redis and database with freshly created watches, so a phase that falls behind
 * leaves no backlog to the next and each phase's table starts equally empty.
 */
async function runPhase(workers: number, options: ScheduleBenchOptions, core: StubCoreProcess): Promise<PhaseResult> {
  const log = options.log ?? (() => undefined);
  const intervalMs = options.intervalSeconds * 1000;
  let redis: RedisServer | undefined;
  let database: TestDatabase | undefined;
  let store: WatchStore | undefined;
  let metering: MeteringInstance | undefined;
  let fleet: WorkerFleet | undefined;
  try {
    redis = await startRedis();
    database = await createTestDatabase('watch_schedule_bench');
    const env: WorkerEnvironment = {
      QUEUE_REDIS_URL: redis.url, LEDGER_REDIS_URL: redis.url, DATABASE_URL: database.url,
      CORE_ADDRESS: core.address, CORE_SERVICE_TOKEN: SERVICE_TOKEN, REFRESH_CONCURRENCY: String(options.concurrency),
    };
    store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }));
    metering = await createMeteringFromEnv({ LEDGER_REDIS_URL: redis.url });

    const createStarted = Date.now();
    // Enough units for every slot, warm-up and grace included, with room to spare.
    const created = await createWatches(store, metering, options, 10 * options.watches * (options.intervals + 2));
    const setup = { ...created, createMs: Date.now() - createStarted };
    log(`${options.watches} watches over ${options.products} products (${created.sharedProducts} watched by both accounts) created in ${setup.createMs} ms`);

    fleet = await startWorkerFleet(workers, env);
    const schedulesSyncedMs = fleet.started.map((s) => s.syncMs);
    log(`${workers} worker(s) ready; schedules synced at start in ${schedulesSyncedMs.map((ms) => `${ms} ms`).join(', ')}`);
    await sleep(options.warmupMs);
    const fromMs = Date.now();
    fleet.mark();
    const cpuBefore = { core: processCpuUs(core.pid) ?? NaN, postgres: await postgresBackendsCpu(store.db, database.name), redis: await redisCpuUs(redis.url) };
    await sleep(options.intervals * intervalMs + options.graceMs);
    const reports = await fleet.report();
    const coreCpuUs = (processCpuUs(core.pid) ?? NaN) - cpuBefore.core;
    const postgresCpuUs = backendsCpuBetween(cpuBefore.postgres, await postgresBackendsCpu(store.db, database.name));
    const redisCpuUsed = (await redisCpuUs(redis.url)) - cpuBefore.redis;
    const loadAverage = loadavg();
    const stats = spanStats(reports, { fromMs, toMs: fromMs + options.intervals * intervalMs, intervalMs, products: options.products });
    const totals = await fleet.stop();
    fleet = undefined;
    log(`${workers} worker(s): lag p50 ${stats.lagMs.p50} ms p95 ${stats.lagMs.p95} ms, ${stats.fetchesPerProductPerInterval} fetches per product per interval`);

    const balances = await Promise.all(created.accountIds.map(async (id) => (await metering!.admin.summary(id)).balance));
    const [rows] = await store.db.query<{ n: string }>('SELECT count(*) AS n FROM snapshots');
    return {
      workers, setup, schedulesSyncedMs, stats, loadAverage,
      coreCpuUsPerRefresh: coreCpuUs / stats.completed,
      postgresCpuUsPerRefresh: postgresCpuUs / stats.completed,
      redisCpuUsPerRefresh: redisCpuUsed / stats.completed,
      unitsCharged: { ledger: created.unitsGranted - balances.reduce((a, b) => a + b, 0), workers: totals.reduce((sum, t) => sum + t.unitsCharged, 0) },
      snapshots: { rows: Number(rows!.n), reads: totals.reduce((sum, t) => sum + t.reads, 0) },
    };
  } finally {
    fleet?.kill();
    await metering?.close();
    await store?.close();
    await redis?.stop();
    await database?.drop();
  }
}
