/**
 * Late debits at the store level (issue 24, docs/metering.md "Late debits"), memory and a real Redis
 * alike: a restored account takes the units of calls charged before its restore epoch and recorded at
 * or after it, once per hold id; calls of its own epoch, or counted by its restore, are left alone;
 * the settle hands off the epoch the account was charged in; a repeat of a late call's settle is not
 * charged again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, DEFAULT_PLANS } from '../../../gateways/metering/src/plans.js';
import { createMemoryStore } from '../../../gateways/metering/src/memory-store.js';
import { createRedisStore } from '../../../gateways/metering/src/redis-store.js';
import type { AccountSnapshot, LedgerStore, StoreOptions } from '../../../gateways/metering/src/store.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';

const options: StoreOptions = {
  plans: DEFAULT_PLANS, defaultPlan: DEFAULT_PLAN, lastUsedIntervalMs: 60_000, usageRetention: 100, auditRetention: 10,
  settleAnswerTtlMs: 60_000,
};
const NOW = Date.parse('2026-03-01T12:00:00Z');
const audit = { at: new Date(NOW).toISOString(), action: 'account.restore' as const };

const snapshot = (accountId: string, balance: number, epoch: number): AccountSnapshot => ({
  accountId, plan: 'unlimited', disabled: false, createdAt: NOW, balance, epoch,
  keys: [{ keyId: 'k1', hash: `hash-${accountId}`, prefix: 'p', operations: [], interfaces: [], createdAt: NOW }],
});

const debit = (holdId: string, units: number, chargedEpoch: number, recordedEpoch: number) => ({ holdId, units, chargedEpoch, recordedEpoch });

function lateDebitSuite(name: string, open: () => Promise<LedgerStore>) {
  describe(`late debits (${name})`, () => {
    it('takes what the restore could not count, once per hold id, and nothing else', async () => {
      const store = await open();
      expect(await store.restoreAccount(snapshot('acct-late', 100, 2), audit)).toBe(true);
      const late = [debit('h1', 3, 1, 2), debit('h2', 2, 0, 3)];
      const notLate = [
        debit('h3', 4, 2, 2), // charged in this epoch: already in the balance
        debit('h4', 5, 0, 1), // recorded before this restore: counted by it
        debit('h5', 6, 2, 3), // charged in this epoch, recorded after a later (losing) restore
      ];
      expect(await store.lateDebit('acct-late', [...late, ...notLate], NOW)).toBe(5);
      expect(await store.lateDebit('acct-late', late, NOW)).toBe(0);
      expect((await store.summary('acct-late', NOW, []))!.balance).toBe(95);
      expect(await store.lateDebit('nobody', late, NOW)).toBe(0);
    });

    it('may leave the balance below zero (those units were spent), and refuses metered calls until a grant, free ones not', async () => {
      const store = await open();
      await store.restoreAccount(snapshot('acct-debt', 2, 1), audit);
      expect(await store.lateDebit('acct-debt', [debit('h1', 5, 0, 1)], NOW)).toBe(5);
      expect((await store.summary('acct-debt', NOW, []))!.balance).toBe(-3);
      const refused = await store.admit({
        accountId: 'acct-debt', keyHash: 'hash-acct-debt', iface: 'rest', operations: ['GetProduct'], shapeValid: true,
        now: NOW, holdId: 'h2', holdExpiresAt: NOW + 60_000, units: 1, rateCost: 1, mode: 'admit',
      });
      expect(refused.code).toBe('units');
      // A free call (0 units) overdraws nothing: admitted in debt as at zero, the debt unchanged.
      const free = await store.admit({
        accountId: 'acct-debt', keyHash: 'hash-acct-debt', iface: 'rest', operations: [], shapeValid: true,
        now: NOW, holdId: 'h3', holdExpiresAt: NOW + 60_000, units: 0, rateCost: 1, mode: 'admit',
      });
      expect(free).toMatchObject({ code: 'ok', balance: -3 });
      // A settle of the late call sent again is answered from its mark and charges nothing more.
      const repeat = await store.settle({ accountId: 'acct-debt', holdId: 'h1', keyId: 'k1', iface: 'rest', chargedOperations: ['GetProduct'], now: NOW, day: '2026-03-01' });
      expect(repeat.charged).toBe(5);
      expect((await store.summary('acct-debt', NOW, []))!.balance).toBe(-3);
    });

    it('hands off the epoch a restored account is charged in', async () => {
      const store = await open();
      await store.restoreAccount(snapshot('acct-epoch', 10, 4), audit);
      await store.admit({
        accountId: 'acct-epoch', keyHash: 'hash-acct-epoch', iface: 'rest', operations: ['GetProduct'], shapeValid: true,
        now: NOW, holdId: 'h1', holdExpiresAt: NOW + 60_000, units: 1, rateCost: 1, mode: 'admit',
      });
      const settled = await store.settle({ accountId: 'acct-epoch', holdId: 'h1', keyId: 'k1', iface: 'rest', chargedOperations: ['GetProduct'], now: NOW, day: '2026-03-01' });
      expect(settled).toEqual({ charged: 1, balance: 9, epoch: 4 });
    });
  });
}

lateDebitSuite('memory', async () => createMemoryStore(options));

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
  lateDebitSuite('redis', async () => {
    const store = createRedisStore({ ...options, redisUrl: redis.url, keyPrefix: `t${n++}:`, settleWindowMs: 5_000 });
    stores.push(store);
    await store.ready();
    return store;
  });
});
