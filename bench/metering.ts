/**
 * Metering overhead: admit + settle (two Lua round trips) against a local redis-server, beside a bare
 * Redis GET round trip in the same run on the same server.
 *
 *   node --conditions=source --import tsx bench/metering.ts [--seconds 3] [--concurrency 32] [--samples 3000]
 *
 * Latency: sequential calls (one in flight), p50/p99 per call. Throughput: `concurrency` callers in a loop
 * for `seconds`. The account is on the `unlimited` plan with plenty of units, so nothing is refused.
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

async function throughput(step: () => Promise<unknown>): Promise<number> {
  let done = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await step();
        done++;
      }
    }),
  );
  return done / seconds;
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
  const getRate = await throughput(get);
  const meteredRate = await throughput(metered);

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
  console.log(
    JSON.stringify({ evalshaUs, getUs, getLatency, meteredLatency, getRate, meteredRate, ratioP50: meteredLatency.p50 / getLatency.p50, unitsCharged: metering.counters.unitsCharged }),
  );
} finally {
  client.disconnect();
  await metering.close();
  await redis.stop();
}
