/**
 * Settlement through a ledger outage, on a real redis-server: frozen with SIGSTOP (connections stay
 * open, nothing answers, everything sent is worked through on SIGCONT) and killed and restarted with
 * its append-only file. What a gateway reports as charged must equal what the ledger charged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMetering, type MeteringInstance, type MeteringOptions } from '../../gateways/metering/src/index.js';
import type { Hold } from '../../gateways/metering/src/api.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(missing !== null)('settlement through a ledger outage', () => {
  let redis: RedisServer | undefined;
  let metering: MeteringInstance | undefined;

  afterEach(async () => {
    redis?.thaw();
    await metering?.close();
    await redis?.stop();
    redis = metering = undefined;
  });

  async function setUp(units: number, calls: number, options: MeteringOptions = {}, persistent = false) {
    redis = await startRedis({ persistent });
    metering = await createMetering({ redisUrl: redis.url, ...options });
    const { accountId } = await metering.admin.createAccount({ units, plan: 'unlimited' });
    const { key } = await metering.admin.createKey(accountId);
    const holds: Hold[] = [];
    for (let i = 0; i < calls; i++) {
      const admitted = await metering.meter.admit({ key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: `r${i}` });
      if (!admitted.ok) throw new Error('admit refused');
      holds.push(admitted.hold);
    }
    return { accountId, holds, m: metering };
  }

  it('charges exactly the served calls when the ledger freezes for 3 s during their settles', async () => {
    const { accountId, holds, m } = await setUp(1_000, 40);
    redis!.freeze();
    const settles = Promise.all(holds.map((hold) => m.meter.settle(hold, 1)));
    await sleep(3_000); // past the 2 s command timeout: every settle has timed out at least once
    redis!.thaw();
    const answers = await settles;
    const reported = answers.reduce((sum, a) => sum + a.charged, 0);
    const balance = (await m.admin.summary(accountId)).balance;
    console.log(`freeze 3 s: 40 served, reported ${reported}, ledger spent ${1_000 - balance}, settle retries ${m.counters.settleRetries}`);
    expect(m.counters.settleRetries).toBeGreaterThan(0);
    expect(reported).toBe(40);
    expect(1_000 - balance).toBe(40);
  });

  it('answers 0 charged after the settle window, and the scripts that run after the thaw charge nothing', async () => {
    const { accountId, holds, m } = await setUp(1_000, 10, { settleWindowMs: 300 });
    redis!.freeze();
    const answers = await Promise.all(holds.map((hold) => m.meter.settle(hold, 1)));
    expect(answers.every((a) => a.charged === 0 && a.remaining === undefined)).toBe(true);
    redis!.thaw();
    // The admin call queues behind the late settles on the same connection: they have run by now.
    const balance = (await m.admin.summary(accountId)).balance;
    console.log(`freeze past the window: reported 0, ledger spent ${1_000 - balance}`);
    expect(balance).toBe(1_000);
  });

  it('charges exactly the served calls when the ledger is killed and restarted from its append-only file', async () => {
    const { accountId, holds, m } = await setUp(1_000, 30, {}, true);
    const restarted = redis!.restart();
    const settles = Promise.all(holds.map((hold) => m.meter.settle(hold, 1)));
    await restarted;
    const answers = await settles;
    const reported = answers.reduce((sum, a) => sum + a.charged, 0);
    const balance = (await m.admin.summary(accountId)).balance;
    console.log(`restart: 30 served, reported ${reported}, ledger spent ${1_000 - balance}, settle retries ${m.counters.settleRetries}`);
    expect(reported).toBe(30);
    expect(1_000 - balance).toBe(30);
  });
});
