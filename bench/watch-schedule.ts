/**
 * Watch scheduling at scale (docs/engineering-tests.md "Watches: Benchmark: 10,000 watches"): 10,000 watches
 * due in every one-minute interval, refreshed by watcher worker processes on real Redis (BullMQ and
 * the unit ledger) and real PostgreSQL, each refresh reading through a core over gRPC. One worker
 * process first (the baseline), then two, on the same watches in the same run. Prints per phase:
 * schedule lag (run start − due time) p50/p95, fetches per product per interval (must be exactly 1;
 * counted at the snapshot reader per product and slot), CPU per refresh of the worker processes and
 * of the core, and the two-process/one-process ratios; then units charged and snapshots stored.
 *
 *   node --conditions=source --import tsx bench/watch-schedule.ts [--watches 10000] [--products 6000]
 *     [--interval 60] [--intervals 2] [--phases 1,2] [--concurrency 16] [--warmup 20] [--grace 15]
 *
 * Starts its own redis-server on a free port and a throw-away database on 127.0.0.1:5432 (dropped at
 * the end, also on failure).
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { postgresMissing } from '../test/harness/postgres.js';
import { redisMissing } from '../test/harness/redis.js';
import { runScheduleBench, type PhaseResult } from './watch-schedule-run.js';

const { values } = parseArgs({
  options: {
    watches: { type: 'string', default: '10000' }, products: { type: 'string', default: '6000' },
    interval: { type: 'string', default: '60' }, intervals: { type: 'string', default: '2' }, phases: { type: 'string', default: '1,2' },
    concurrency: { type: 'string', default: '16' }, warmup: { type: 'string', default: '20' }, grace: { type: 'string', default: '15' },
  },
});

const missing = redisMissing() ?? (await postgresMissing());
if (missing) {
  console.error(missing);
  process.exit(0);
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const us = (value: number) => `${Math.round(value).toLocaleString('en-US')} µs`;
const load = (values: readonly number[]) => values.map((v) => v.toFixed(1)).join(' / ');

const loadAtStart = loadavg();
const phases = await runScheduleBench({
  watches: Number(values.watches), products: Number(values.products), intervalSeconds: Number(values.interval),
  intervals: Number(values.intervals), phases: values.phases.split(',').map(Number), concurrency: Number(values.concurrency),
  warmupMs: Number(values.warmup) * 1000, graceMs: Number(values.grace) * 1000,
  log: (line) => console.error(`[bench] ${line}`),
});

console.log(`\n${cpus().length} cores; load average (1/5/15 min) at start ${load(loadAtStart)}`);
console.log(`${values.watches} watches over ${values.products} products (${phases[0]!.setup.sharedProducts} watched by both accounts), every ${values.interval} s; ` +
  `${values.concurrency} refreshes at once per worker process`);
const row = (phase: PhaseResult) => {
  const s = phase.stats;
  return `| ${phase.workers} | ${s.slots.toLocaleString('en-US')} | ${ms(s.lagMs.p50)} | ${ms(s.lagMs.p95)} | ${ms(s.lagMs.max)} | ${ms(s.runMs.p50)} | ${ms(s.runMs.p95)} | ` +
    `${s.fetchesPerProductPerInterval.toFixed(4)} (once ${s.readOnce}, twice+ ${s.readTwiceOrMore}, never ${s.neverRead}) | ${s.duplicateStarts} | ${s.retries} | ` +
    `${us(s.cpuUsPerRefresh)} | ${us(phase.coreCpuUsPerRefresh)} | ${us(phase.postgresCpuUsPerRefresh)} | ${us(phase.redisCpuUsPerRefresh)} | ` +
    `${s.refreshesPerSecond.toFixed(0)}/s | ${load(phase.loadAverage)} |`;
};
const notes = (phase: PhaseResult) => {
  const failures = Object.entries(phase.stats.failures).map(([k, n]) => `${n}× ${k}`).join('; ') || 'none';
  const { unitsCharged: units, snapshots } = phase;
  return `${phase.workers} worker(s): watches created in ${ms(phase.setup.createMs)}; schedules synced at start in ${phase.schedulesSyncedMs.map(ms).join(', ')}; ` +
    `failed attempts: ${failures}; units charged: ledger ${units.ledger}, settles ${units.workers}${units.ledger === units.workers ? ' (equal)' : ' (MISMATCH)'}; ` +
    `snapshots stored ${snapshots.rows}, reads ${snapshots.reads}${snapshots.rows === snapshots.reads ? ' (equal)' : ' (MISMATCH)'}`;
};
console.log(`needed: ${(Number(values.products) / Number(values.interval)).toFixed(0)} product refreshes/s (${values.products} products every ${values.interval} s)`);
console.log('\n| workers | product slots | lag p50 | lag p95 | lag max | run p50 | run p95 | fetches per product per interval | duplicate runs | retries | CPU per refresh: workers | core | PostgreSQL (≥) | Redis | refreshes | load after |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const phase of phases) console.log(row(phase));
for (const phase of phases) console.log(notes(phase));

const needed = Number(values.products) / Number(values.interval);
for (const phase of phases) {
  const perRefresh = phase.stats.cpuUsPerRefresh + phase.coreCpuUsPerRefresh + phase.postgresCpuUsPerRefresh + phase.redisCpuUsPerRefresh;
  console.log(`${phase.workers} worker(s): ${us(perRefresh)} of CPU per refresh in all; ${needed.toFixed(0)} refreshes/s need ${(perRefresh * needed / 1e6).toFixed(2)} cores`);
}

const [base, ...others] = phases;
for (const other of others) {
  if (!base) break;
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(`\n${other.workers} processes / ${base.workers}: lag p50 ×${ratio(other.stats.lagMs.p50, base.stats.lagMs.p50)}, p95 ×${ratio(other.stats.lagMs.p95, base.stats.lagMs.p95)}, ` +
    `refreshes per second ×${ratio(other.stats.refreshesPerSecond, base.stats.refreshesPerSecond)}, worker CPU per refresh ×${ratio(other.stats.cpuUsPerRefresh, base.stats.cpuUsPerRefresh)}`);
}
