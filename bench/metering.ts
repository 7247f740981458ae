/**
 * Metering overhead: admit + settle (two Lua round trips) against a local redis-server, beside a bare
 * Redis GET round trip in the same run on the same server.
 *
 *   node --conditions=source --import tsx bench/metering.ts [--seconds 3] [--concurrency 32] [--samples 3000]
 *
 * Latency: sequential calls (one in flight), p50/p99 per call. Throughput: `concurrency` callers in a loop
 * for `seconds`, with this process's CPU per call, beside the same loop on the memory ledger. The account is on the `unlimited` plan with plenty of units, so nothing is refused.
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createMetering } from '../gateways/metering/src/index.js';
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
      redisClientCpuUs, memoryCpuUs, memoryRate,
    }),
  );
} finally {
  client.disconnect();
  await metering.close();
  await redis.stop();
}
