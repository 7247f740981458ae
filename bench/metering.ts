/**
 * Metering overhead: admit + settle (two Lua round trips) against a local redis-server, beside a bare
 * Redis GET round trip in the same run on the same server.
 *
 *   node --conditions=source --import tsx bench/metering.ts [--seconds 3] [--concurrency 32] [--samples 3000]
 *
 * Latency: sequential calls (one in flight), p50/p99 per call. Throughput: `concurrency` callers in a loop
 * for `seconds`, with this process's CPU per call, beside the same loop on the memory ledger. The account is on the `unlimited` plan with plenty of units, so nothing is refused.
 *
 * With a PostgreSQL server (test/harness/postgres.ts): the same Redis ledger with its record (issue 24),
 * in alternating rounds against the one without, as ratios (admitted calls/s, CPU per call); and the
 * hand-off's lag at a paced 1,000 calls/s: how many settled calls are not yet rows, sampled every 250 ms.
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '../gateways/metering/src/index.js';
import { createTestDatabase, postgresMissing } from '../test/harness/postgres.js';
import { redisMissing, startRedis } from '../test/harness/redis.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, concurrency: { type: 'string', default: '16' }, samples: { type: 'string', default: '3000' } },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const samples = Number(values.samples);

const missing = redisMissing();
if (missing) {
  console.error(missing);
  process.exit(0);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function latency(step: () => Promise<unknown>): Promise<{ p50: number; p99: number; mean: number }> {
  for (let i = 0; i < 300; i++) await step(); // warm-up (script load, JIT)
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    await step();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

/** Calls per second with `concurrency` callers, and this process's CPU per call (µs): the gateway's side of the ledger. */
async function throughput(step: () => Promise<unknown>): Promise<{ rate: number; cpuUsPerCall: number }> {
  let done = 0;
  const cpu = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await step();
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rate: done / seconds, cpuUsPerCall: (used.user + used.system) / done };
}

/** Alternating rounds of the comparison; the median of each side is compared. */
const ROUNDS = 5;

/** Admits and settles one call on `metering` with `key`. */
async function meteredCall(metering: MeteringInstance, request: { key: string; interface: 'rest'; operations: string[]; shapeValid: boolean; requestId: string }): Promise<void> {
  const admitted = await metering.meter.admit(request);
  if (!admitted.ok) throw new Error('admit refused during the benchmark');
  await metering.meter.settle(admitted.hold, 1);
}

/**
 * The Redis ledger with and without its record, in alternating rounds (the machine is shared): the
 * ratios recorded/plain of admitted calls/s and of this process's CPU per call, then the hand-off's lag.
 */
async function recordComparison(plain: MeteringInstance, client: Redis, request: Parameters<typeof meteredCall>[1]) {
  const missingPg = await postgresMissing();
  if (missingPg) {
    console.log(`record comparison skipped: ${missingPg}`);
    return undefined;
  }
  const test = await createTestDatabase('ledger_bench');
  const db: Database = createPostgresDatabase({ connectionString: test.url });
  // The hot path alone: this process only appends to the hand-off stream; a second metering (the
  // watcher, say) consumes it, and its CPU per row is measured apart.
  // A redis-server of its own, so each server's INFO commandstats gives its scripts' CPU per call.
  const recordRedis = await startRedis();
  const recordClient = new Redis(recordRedis.url);
  const handoffLength = () => recordClient.xlen('ledger:usage-handoff');
  const withRecord = await createMetering({ redisUrl: recordRedis.url, record: db, log: () => undefined, usageConsumer: false });
  try {
    const { accountId } = await withRecord.admin.createAccount({ units: 100_000_000, plan: 'unlimited' });
    const recordedRequest = { ...request, key: (await withRecord.admin.createKey(accountId, { label: 'bench' })).key };
    const rounds = { plain: [] as Array<{ rate: number; cpuUsPerCall: number }>, recorded: [] as Array<{ rate: number; cpuUsPerCall: number }> };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.plain.push(await throughput(() => meteredCall(plain, request)));
      rounds.recorded.push(await throughput(() => meteredCall(withRecord, recordedRequest)));
    }
    // The consumer's cost per row: what the rounds appended, written by a consumer in this process.
    const consumerDb = createPostgresDatabase({ connectionString: test.url });
    const backlog = (await handoffLength());
    const consumerCpu = process.cpuUsage();
    const consumerStart = Date.now();
    const scriptUs = { plain: await evalshaUsPerCall(client), recorded: await evalshaUsPerCall(recordClient) };
    const consumer = await createMetering({ redisUrl: recordRedis.url, record: consumerDb, log: () => undefined });
    while ((await handoffLength()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const consumerUsed = process.cpuUsage(consumerCpu);
    const consumerMs = Date.now() - consumerStart;
    await consumer.close();
    await consumerDb.close();
    const consumerCpuUsPerRow = (consumerUsed.user + consumerUsed.system) / backlog;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rateRatio = median(rounds.recorded.map((r) => r.rate)) / median(rounds.plain.map((r) => r.rate));
    const cpuRatio = median(rounds.recorded.map((r) => r.cpuUsPerCall)) / median(rounds.plain.map((r) => r.cpuUsPerCall));

    // The hand-off at a paced 1,000 calls/s, with a consumer running: settled calls not yet rows, sampled every 250 ms.
    const lagDb = createPostgresDatabase({ connectionString: test.url });
    const lagConsumer = await createMetering({ redisUrl: recordRedis.url, record: lagDb, log: () => undefined });
    const rowsOf = async () => Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger_usage'))[0]!.n);
    const before = await rowsOf();
    let settled = 0;
    let maxBehind = 0;
    const start = Date.now();
    const pacer = (async () => {
      for (let tick = 0; Date.now() - start < seconds * 1000; tick++) {
        await Promise.all(Array.from({ length: 10 }, () => meteredCall(withRecord, recordedRequest).then(() => void settled++)));
        const wait = start + (tick + 1) * 10 - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    const sampler = (async () => {
      while (Date.now() - start < seconds * 1000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const seen = settled;
        maxBehind = Math.max(maxBehind, seen - ((await rowsOf()) - before));
      }
    })();
    await Promise.all([pacer, sampler]);
    const drainStart = Date.now();
    while ((await rowsOf()) - before < settled) await new Promise((resolve) => setTimeout(resolve, 10));
    const drainMs = Date.now() - drainStart;
    await lagConsumer.close();
    await lagDb.close();
    const pacedRate = settled / seconds;
    console.log(`Redis ledger with its record / without (median of ${ROUNDS} alternating rounds): admitted calls/s ${rateRatio.toFixed(3)}×, CPU per call ${cpuRatio.toFixed(3)}×`);
    console.log(`ledger scripts' Redis CPU per call (admit/settle mean): ${scriptUs.recorded.toFixed(2)} µs with the hand-off, ${scriptUs.plain.toFixed(2)} µs without (${(scriptUs.recorded / scriptUs.plain).toFixed(3)}×)`);
    console.log(`hand-off consumer: ${backlog} rows in ${consumerMs} ms, ${consumerCpuUsPerRow.toFixed(1)} µs of this process's CPU per row (with its start-up)`);
    console.log(`hand-off at ${pacedRate.toFixed(0)} calls/s: at most ${maxBehind} settled calls not yet rows (${(maxBehind / pacedRate * 1000).toFixed(0)} ms), drained ${drainMs} ms after the last`);
    return { rounds, rateRatio, cpuRatio, scriptUs, backlog, consumerMs, consumerCpuUsPerRow, pacedRate, maxBehind, drainMs };
  } finally {
    await withRecord.close();
    await db.close();
    await test.drop();
    recordClient.disconnect();
    await recordRedis.stop();
  }
}

/** Mean CPU per EVALSHA (the ledger scripts) on the server `redis` talks to. */
async function evalshaUsPerCall(redis: Redis): Promise<number> {
  return Number(/cmdstat_evalsha:.*?usec_per_call=([\d.]+)/.exec(await redis.info('commandstats'))?.[1] ?? NaN);
}

const redis = await startRedis();

const client = new Redis(redis.url);
const metering = await createMetering({ redisUrl: redis.url });
try {
  await client.set('bench:plain', 'x');
  const { accountId } = await metering.admin.createAccount({ units: 100_000_000, plan: 'unlimited' });
  const { key } = await metering.admin.createKey(accountId, { label: 'bench' });
  const request = { key, interface: 'rest' as const, operations: ['GetProduct'], shapeValid: true, requestId: 'bench' };
  const metered = async () => {
    const admitted = await metering.meter.admit(request);
    if (!admitted.ok) throw new Error('admit refused during the benchmark');
    await metering.meter.settle(admitted.hold, 1);
  };
  const get = () => client.get('bench:plain');

  const getLatency = await latency(get);
  const meteredLatency = await latency(metered);
  const { rate: getRate } = await throughput(get);
  const { rate: meteredRate, cpuUsPerCall: redisClientCpuUs } = await throughput(metered);
  // The same calls on the memory ledger, in this process: what the Redis ledger costs the gateway beyond it.
  const memory = await createMetering();
  const memoryAccount = await memory.admin.createAccount({ units: 100_000_000, plan: 'unlimited' });
  const memoryKey = (await memory.admin.createKey(memoryAccount.accountId, { label: 'bench' })).key;
  const { rate: memoryRate, cpuUsPerCall: memoryCpuUs } = await throughput(async () => {
    const admitted = await memory.meter.admit({ ...request, key: memoryKey });
    if (!admitted.ok) throw new Error('admit refused during the benchmark');
    await memory.meter.settle(admitted.hold, 1);
  });
  await memory.close();

  const recorded = await recordComparison(metering, client, request);

  // Server-side cost of the scripts (both admit and settle), independent of client and network load.
  const stats = await client.info('commandstats');
  const evalshaUs = Number(/cmdstat_evalsha:.*?usec_per_call=([\d.]+)/.exec(stats)?.[1] ?? NaN);
  const getUs = Number(/cmdstat_get:.*?usec_per_call=([\d.]+)/.exec(stats)?.[1] ?? NaN);
  const ms = (n: number) => n.toFixed(3);
  console.log(`redis-server ${redis.url}, ${samples} sequential samples, ${concurrency} concurrent callers for ${seconds}s`);
  console.log(`bare GET            p50 ${ms(getLatency.p50)} ms  p99 ${ms(getLatency.p99)} ms  ${getRate.toFixed(0)} ops/s`);
  console.log(`admit + settle      p50 ${ms(meteredLatency.p50)} ms  p99 ${ms(meteredLatency.p99)} ms  ${meteredRate.toFixed(0)} admitted calls/s`);
  console.log(
    `ratio (metered/GET) p50 ${(meteredLatency.p50 / getLatency.p50).toFixed(2)}×  p99 ${(meteredLatency.p99 / getLatency.p99).toFixed(2)}×  throughput ${(getRate / meteredRate).toFixed(2)}× fewer`,
  );
  console.log(`redis CPU per command: GET ${getUs.toFixed(1)} µs, ledger script (EVALSHA, admit/settle mean) ${evalshaUs.toFixed(1)} µs`);
  console.log(`this process's CPU per admit + settle: Redis ledger ${redisClientCpuUs.toFixed(1)} µs, memory ledger ${memoryCpuUs.toFixed(1)} µs (${memoryRate.toFixed(0)} calls/s)`);
  console.log(
    JSON.stringify({
      evalshaUs, getUs, getLatency, meteredLatency, getRate, meteredRate, ratioP50: meteredLatency.p50 / getLatency.p50, unitsCharged: metering.counters.unitsCharged,
      redisClientCpuUs, memoryCpuUs, memoryRate, recorded,
    }),
  );
} finally {
  client.disconnect();
  await metering.close();
  await redis.stop();
}
