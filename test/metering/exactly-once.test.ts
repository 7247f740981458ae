/**
 * Exactly once by hold id, at the store level where a repeat really happens: a Redis client resends
 * an admit or a settle after a reconnect, and a gateway resends a settle that timed out. Both stores
 * (memory and a real Redis) must hold once and charge once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, DEFAULT_PLANS } from '../../gateways/metering/src/plans.js';
import { createMemoryStore } from '../../gateways/metering/src/memory-store.js';
import { createRedisStore } from '../../gateways/metering/src/redis-store.js';
import type { LedgerStore, StoreAdmitInput, StoreOptions } from '../../gateways/metering/src/store.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';

const options: StoreOptions = {
  plans: DEFAULT_PLANS, defaultPlan: DEFAULT_PLAN, lastUsedIntervalMs: 60_000, usageRetention: 100, auditRetention: 10,
  settleAnswerTtlMs: 60_000,
};
const NOW = Date.parse('2026-03-01T12:00:00Z');
const audit = { at: new Date(NOW).toISOString(), action: 'account.create' as const };

async function accountWithKey(store: LedgerStore, accountId: string, units: number): Promise<string> {
  await store.createAccount(accountId, units, 'unlimited', audit);
  await store.createKey(accountId, { keyId: 'k1', hash: `hash-${accountId}`, prefix: 'p', operations: [], interfaces: [], createdAt: NOW }, 5, NOW, audit);
  return `hash-${accountId}`;
}

function admitInput(accountId: string, keyHash: string, holdId: string, units: number): StoreAdmitInput {
  return {
    accountId, keyHash, iface: 'rest', operations: Array.from({ length: units }, () => 'GetProduct'), shapeValid: true,
    now: NOW, holdId, holdExpiresAt: NOW + 60_000, units, rateCost: 1, mode: 'admit',
  };
}

const settleInput = (accountId: string, holdId: string, operations: string[], now = NOW) => ({
  accountId, holdId, keyId: 'k1', iface: 'rest' as const, chargedOperations: operations, now, day: '2026-03-01',
});

function exactlyOnceSuite(name: string, open: () => Promise<LedgerStore>) {
  describe(`exactly once by hold id (${name})`, () => {
    it('holds once when the same admit arrives twice', async () => {
      const store = await open();
      const hash = await accountWithKey(store, 'acct-admit', 5);
      const first = await store.admit(admitInput('acct-admit', hash, 'hold-1', 2));
      const repeat = await store.admit(admitInput('acct-admit', hash, 'hold-1', 2));
      expect(first).toMatchObject({ code: 'ok', balance: 3 });
      expect(repeat).toMatchObject({ code: 'ok', balance: 3 });
      expect(await store.settle(settleInput('acct-admit', 'hold-1', ['GetProduct']))).toEqual({ charged: 1, balance: 4 });
      // A repeat of the admit after its settle neither holds again nor reopens the hold.
      expect(await store.admit(admitInput('acct-admit', hash, 'hold-1', 2))).toMatchObject({ code: 'ok', balance: 4 });
      expect((await store.summary('acct-admit', NOW, ['2026-03-01']))?.balance).toBe(4);
    });

    it('charges once when the same settle arrives three times, and answers each the same', async () => {
      const store = await open();
      const hash = await accountWithKey(store, 'acct-settle', 5);
      await store.admit(admitInput('acct-settle', hash, 'hold-2', 1));
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await store.settle(settleInput('acct-settle', 'hold-2', ['GetProduct'])));
      expect(answers).toEqual([0, 1, 2].map(() => ({ charged: 1, balance: 4 })));
      expect((await store.recentUsage('acct-settle', 10)).length).toBe(1);
    });

    it('charges a settle whose hold was released at expiry from the balance, never below zero', async () => {
      const store = await open();
      const hash = await accountWithKey(store, 'acct-late', 3);
      await store.admit(admitInput('acct-late', hash, 'hold-3', 3));
      const later = NOW + 61_000;
      // Another call after the expiry releases the 3 held units, then holds 2 of them itself.
      await store.admit({ ...admitInput('acct-late', hash, 'hold-4', 2), now: later, holdExpiresAt: later + 60_000 });
      const late = await store.settle(settleInput('acct-late', 'hold-3', ['GetProduct', 'GetProduct', 'GetProduct'], later));
      expect(late).toEqual({ charged: 1, balance: 0 });
    });
  });
}

exactlyOnceSuite('memory', async () => createMemoryStore(options));

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('on a real Redis', () => {
  let redis: RedisServer;
  const stores: LedgerStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await redis?.stop();
  });
  let n = 0;
  exactlyOnceSuite('redis', async () => {
    const store = createRedisStore({ ...options, redisUrl: redis.url, keyPrefix: `t${n++}:`, settleWindowMs: 5_000 });
    stores.push(store);
    await store.ready();
    return store;
  });
});
