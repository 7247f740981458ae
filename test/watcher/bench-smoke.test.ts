/**
 * The scheduling benchmark (bench/watch-schedule.ts) run small: two watcher worker processes on real
 * Redis and PostgreSQL, refreshing through a core over gRPC, read every product exactly once in each
 * of its slots, for one account or two, lose no slot, and charge exactly the units their settles
 * report. Timings are the benchmark's business; this checks the counts it relies on.
 */
import { describe, expect, it } from 'vitest';
import { runScheduleBench } from '../../bench/watch-schedule-run.js';
import { postgresMissing } from '../harness/postgres.js';
import { redisMissing } from '../harness/redis.js';

const missing = redisMissing() ?? (await postgresMissing());
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('the watch scheduling benchmark, small', () => {
  it('has two worker processes read each product once per interval, shared or not, and charge each watch once per refresh', async () => {
    const [two] = await runScheduleBench({
      // 4 refreshes a second: little enough for a busy shared machine, where a run can take a second.
      watches: 30, products: 20, intervalSeconds: 5, intervals: 2, phases: [2], concurrency: 4, warmupMs: 3_000, graceMs: 5_000,
    });
    expect(two!.setup).toMatchObject({ sharedProducts: 10, singleProducts: 10 });
    expect(two!.stats).toMatchObject({ slots: 40, fetchesPerProductPerInterval: 1, readOnce: 40, readTwiceOrMore: 0, neverRead: 0, duplicateStarts: 0 });
    expect(two!.unitsCharged.ledger).toBe(two!.unitsCharged.workers);
    expect(two!.snapshots.rows).toBe(two!.snapshots.reads);
    // Every refresh served its product's watches: 1.5 watches per product on average.
    expect(two!.unitsCharged.ledger).toBeGreaterThanOrEqual(40 * 1.5);
  }, 120_000);
});
