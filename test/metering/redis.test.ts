/**
 * The ledger suite against a real single-node redis-server, plus what only a shared store shows:
 * revocation across two Metering instances, fail-closed when the ledger is down.
 */
import { ErrorReason } from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetering, type MeteringInstance, type MeteringOptions } from '../../gateways/metering/src/index.js';
import { freePort, redisMissing, startRedis, type RedisServer } from '../harness/redis.js';

/** Polls (real time: reconnection is ioredis's own back-off) until `check` holds, at most 10 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached within 10 s');
}
import { fakeClock, ledgerSuite } from './ledger-suite.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('single-node Redis ledger', () => {
  let redis: RedisServer;
  const opened: MeteringInstance[] = [];
  const open = async (options: MeteringOptions) => {
    const metering = await createMetering({ redisUrl: redis.url, ...options });
    opened.push(metering);
    return metering;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(opened.map((m) => m.close()));
    await redis?.stop();
  });

  ledgerSuite('redis', open);

  it('makes a revocation effective on another instance within a second', async () => {
    const clock = fakeClock();
    const a = await open({ clock: clock.now });
    const b = await open({ clock: clock.now, keyCacheMs: 5_000 }); // capped at 1 s
    const { accountId } = await a.admin.createAccount();
    const { key, info } = await a.admin.createKey(accountId);
    const request = { key, interface: 'rest' as const, operations: ['GetProduct'], shapeValid: true, requestId: 'r' };
    expect((await b.meter.admit(request)).ok).toBe(true);
    expect((await b.meter.authenticate(key, 'mcp')).ok).toBe(true);
    await a.admin.revokeKey(accountId, info.keyId);
    // Metered calls look the key up inside the admit script: refused at once.
    const admitted = await b.meter.admit(request);
    expect(!admitted.ok && !admitted.shape && admitted.denial.httpStatus).toBe(401);
    // Free calls may use the in-process cache, never for a second or more.
    clock.advance(1_000);
    const auth = await b.meter.authenticate(key, 'mcp');
    expect(!auth.ok && auth.denial.httpStatus).toBe(401);
  });

  it('fails closed with 503 LEDGER_UNAVAILABLE when the ledger is down, and counts it', async () => {
    const own = await startRedis();
    // A short settle window: a settle the stopped ledger cannot take gives up after it (plus clock skew).
    const metering = await createMetering({ redisUrl: own.url, plans: {}, settleWindowMs: 200 });
    try {
      const { accountId } = await metering.admin.createAccount({ plan: 'unlimited' });
      const { key } = await metering.admin.createKey(accountId);
      const request = { key, interface: 'mcp' as const, operations: ['GetProduct'], shapeValid: true, requestId: 'r' };
      const held = await metering.meter.admit(request);
      expect(held.ok).toBe(true);
      await own.stop();
      const refused = await metering.meter.admit(request);
      expect(!refused.ok && !refused.shape && refused.denial).toMatchObject({ reason: ErrorReason.LEDGER_UNAVAILABLE, httpStatus: 503 });
      if (held.ok) expect(await metering.meter.settle(held.hold, 1)).toEqual({ charged: 0 });
      const auth = await metering.meter.authenticate(key, 'mcp');
      expect(!auth.ok && auth.denial.httpStatus).toBe(503);
      expect(await metering.meter.accountSummary(key)).toMatchObject({ httpStatus: 503 });
      expect(metering.counters.ledgerUnavailable).toBe(4);
      expect(await metering.ready()).toBe(false);
      // The same address comes back (empty: no persistence in tests): the instance reconnects by itself.
      const back = await startRedis(own.port);
      try {
        await until(() => metering.ready());
        const { accountId: fresh } = await metering.admin.createAccount();
        const { key: freshKey } = await metering.admin.createKey(fresh);
        expect((await metering.meter.admit({ ...request, key: freshKey })).ok).toBe(true);
      } finally {
        await back.stop();
      }
    } finally {
      await metering.close();
      await own.stop();
    }
  });

  it('starts while the ledger is down (503s) and serves once it comes up', async () => {
    const port = await freePort();
    const metering = await createMetering({ redisUrl: `redis://127.0.0.1:${port}` });
    try {
      expect(await metering.ready()).toBe(false);
      expect(metering.storeKind).toBe('redis');
      await expect(metering.admin.createAccount()).rejects.toThrow();
      const server = await startRedis(port);
      try {
        await until(() => metering.ready());
        const { accountId } = await metering.admin.createAccount();
        const { key } = await metering.admin.createKey(accountId);
        expect(await metering.meter.authenticate(key, 'rest')).toMatchObject({ ok: true, accountId });
      } finally {
        await server.stop();
      }
    } finally {
      await metering.close();
    }
  });
});
