/**
 * The behavioural suite every ledger store must pass (memory, single-node Redis, Redis Cluster).
 * Time is a fake clock the tests move; nothing sleeps.
 */
import { ErrorReason } from '@retail/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdmitRequest, AdmitResult, Denial, Interface } from '../../gateways/metering/src/api.js';
import type { MeteringInstance, MeteringOptions } from '../../gateways/metering/src/index.js';
import { MeteringAdminError } from '../../gateways/metering/src/index.js';

export type MeteringFactory = (options: MeteringOptions) => Promise<MeteringInstance>;

export function fakeClock(start = Date.parse('2026-03-01T12:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function call(key: string, overrides: Partial<AdmitRequest> = {}): AdmitRequest {
  return { key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: 'req-test', ...overrides };
}

function denialOf(result: AdmitResult): Denial {
  if (result.ok || result.shape) throw new Error(`expected a denial, got ${JSON.stringify(result)}`);
  return result.denial;
}

function reasonOf(result: AdmitResult): string {
  if (result.ok) return 'ok';
  if (result.shape) return 'shape';
  return ErrorReason[result.denial.reason] ?? String(result.denial.reason);
}

export function ledgerSuite(name: string, make: MeteringFactory): void {
  describe(`ledger behaviour (${name})`, () => {
    let clock: ReturnType<typeof fakeClock>;
    let metering: MeteringInstance;
    const open = (options: MeteringOptions = {}) => make({ clock: clock.now, ...options });
    const account = async (units?: number, plan?: string, m = metering) => {
      const { accountId } = await m.admin.createAccount({ units, plan });
      const { key } = await m.admin.createKey(accountId);
      return { accountId, key };
    };
    const balance = async (accountId: string, m = metering) => (await m.admin.summary(accountId)).balance;

    beforeEach(async () => {
      clock = fakeClock();
      metering = await open();
    });

    it('gives a new account 100 units on the free plan and charges one unit per successful call', async () => {
      const { accountId, key } = await account();
      expect(await metering.admin.summary(accountId)).toMatchObject({ balance: 100, plan: 'free' });
      const first = await metering.meter.admit(call(key));
      if (!first.ok) throw new Error(reasonOf(first));
      expect(first.balance).toBe(99);
      expect(first.hold).toMatchObject({ accountId, units: 1, interface: 'rest', operations: ['GetProduct'] });
      expect(await metering.meter.settle(first.hold, 1)).toEqual({ charged: 1, remaining: 99 });
      const failed = await metering.meter.admit(call(key));
      if (!failed.ok) throw new Error(reasonOf(failed));
      expect(await metering.meter.settle(failed.hold, 0)).toEqual({ charged: 0, remaining: 99 });
      expect(await balance(accountId)).toBe(99);
    });

    it('admits a free call (no operations to charge) on any balance, taking a rate-limit token and no unit', async () => {
      const { accountId, key } = await account(0);
      const free = await metering.meter.admit(call(key, { operations: [] }));
      if (!free.ok) throw new Error(reasonOf(free));
      expect([free.hold.units, free.balance]).toEqual([0, 0]);
      expect(free.rateLimit.remaining).toBeLessThan(free.rateLimit.limit);
      expect(await metering.meter.settle(free.hold, 0, [])).toEqual({ charged: 0, remaining: 0 });
      expect(await balance(accountId)).toBe(0);
    });

    it('lets exactly one of 50 parallel calls through on a balance of 1 (49 × 402)', async () => {
      const { key } = await account(1, 'unlimited');
      const results = await Promise.all(Array.from({ length: 50 }, () => metering.meter.admit(call(key))));
      const reasons = results.map(reasonOf);
      expect(reasons.filter((r) => r === 'ok')).toHaveLength(1);
      expect(reasons.filter((r) => r === 'INSUFFICIENT_UNITS')).toHaveLength(49);
      expect(denialOf(results.find((r) => !r.ok)!).httpStatus).toBe(402);
    });

    it('leaves balance = start − successes after 1,000 calls where a third fail', async () => {
      const { accountId, key } = await account(5000, 'unlimited');
      let successes = 0;
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(
          Array.from({ length: 50 }, async (_, i) => {
            const admitted = await metering.meter.admit(call(key));
            if (!admitted.ok) throw new Error(reasonOf(admitted));
            const succeeded = (batch * 50 + i) % 3 === 0 ? 0 : 1;
            const settled = await metering.meter.settle(admitted.hold, succeeded);
            successes += settled.charged;
          }),
        );
      }
      expect(successes).toBe(666);
      expect(await balance(accountId)).toBe(5000 - successes);
    });

    it('releases the hold of a process killed between admit and settle once it expires', async () => {
      metering = await open({ holdTtlMs: 30_000 });
      const { accountId, key } = await account(3, 'unlimited');
      const orphan = await metering.meter.admit(call(key, { operations: ['GetProduct', 'GetProductOffers'] }));
      expect(orphan.ok).toBe(true);
      expect(await balance(accountId)).toBe(1);
      clock.advance(29_000);
      expect(await balance(accountId)).toBe(1);
      clock.advance(1_001);
      // The next script that touches the account (here: an admit) releases it first.
      const next = await metering.meter.admit(call(key));
      expect(next.ok && next.balance).toBe(2);
      expect(await balance(accountId)).toBe(2);
      // A settle arriving after the release (a gateway that was slow, not dead, and served the call)
      // is charged from the balance as far as it covers it, and only once.
      if (!orphan.ok) throw new Error('orphan not admitted');
      expect(await metering.meter.settle(orphan.hold, 2)).toEqual({ charged: 2, remaining: 0 });
      expect(await metering.meter.settle(orphan.hold, 2)).toEqual({ charged: 2, remaining: 0 });
      expect(await balance(accountId)).toBe(0);
    });

    it('holds background work by account with the caller\'s hold id: once per id, no rate limit, 402 when short', async () => {
      const { accountId } = await account(3, 'free');
      const refresh = (holdId: string, operations = ['GetProduct']) =>
        metering.meter.admitAccount({ accountId, holdId, work: 'watcher', operations });
      // The free plan's burst (10) does not apply: background work is paced by its own schedule.
      const first = await refresh('watch-1:2026-03-01T12:00');
      const again = await refresh('watch-1:2026-03-01T12:00');
      expect(first).toMatchObject({ ok: true, balance: 2, hold: { accountId, units: 1, interface: 'watcher', keyId: '' } });
      expect(again).toMatchObject({ ok: true, balance: 2 });
      if (!first.ok) throw new Error('refused');
      expect(await metering.meter.settle(first.hold, 1)).toEqual({ charged: 1, remaining: 2 });
      expect(await refresh('watch-1:2026-03-01T12:00')).toMatchObject({ ok: true, balance: 2 }); // settled: not held again
      const short = await refresh('job-7:items-0-2', ['GetProduct', 'GetProduct', 'GetProduct']);
      expect(!short.ok && short.denial).toMatchObject({ reason: ErrorReason.INSUFFICIENT_UNITS, httpStatus: 402 });
      expect(!short.ok && short.denial.message).toBe(
        'unit balance is too low for this request; the console (/console) shows your balance and how to get units; self-hosted, grant them with the admin CLI (npm run admin -- account grant <accountId> <units>)',
      );
      expect(!short.ok && short.denial.message).not.toContain(accountId);
      expect(await balance(accountId)).toBe(2);
      expect((await metering.admin.recentUsage(accountId, 10)).map((u) => u.interface)).toEqual(['watcher']);
      await expect(refresh('bad id with spaces')).rejects.toThrow(/hold id/);
    });

    it('refuses background work for a disabled (403) or deleted (401) account', async () => {
      const { accountId } = await account(10);
      await metering.admin.setDisabled(accountId, true);
      const disabled = await metering.meter.admitAccount({ accountId, holdId: 'w:1', work: 'watcher', operations: ['GetProduct'] });
      expect(!disabled.ok && disabled.denial.httpStatus).toBe(403);
      await metering.admin.deleteAccount(accountId);
      const gone = await metering.meter.admitAccount({ accountId, holdId: 'w:2', work: 'watcher', operations: ['GetProduct'] });
      expect(!gone.ok && gone.denial.httpStatus).toBe(401);
    });

    it('charges a repeated settle of one hold once and answers the repeat as the first', async () => {
      const { accountId, key } = await account(10, 'unlimited');
      const admitted = await metering.meter.admit(call(key, { operations: ['GetProduct', 'GetProductOffers'] }));
      if (!admitted.ok) throw new Error(reasonOf(admitted));
      const answers = await Promise.all([1, 2, 3].map(() => metering.meter.settle(admitted.hold, 2)));
      expect(answers).toEqual([1, 2, 3].map(() => ({ charged: 2, remaining: 8 })));
      expect(await balance(accountId)).toBe(8);
      expect((await metering.admin.summary(accountId)).usage.reduce((sum, row) => sum + row.calls, 0)).toBe(2);
    });

    it('holds one unit per GraphQL operation, answers 402 for the whole request, charges only successes', async () => {
      const { accountId, key } = await account(2, 'unlimited');
      const three = ['GetProduct', 'GetProductOffers', 'GetProductReviews'];
      const tooMany = await metering.meter.admit(call(key, { interface: 'graphql', operations: three }));
      expect(denialOf(tooMany)).toMatchObject({ reason: ErrorReason.INSUFFICIENT_UNITS, httpStatus: 402 });
      expect(await balance(accountId)).toBe(2);
      const two = await metering.meter.admit(call(key, { interface: 'graphql', operations: three.slice(0, 2) }));
      if (!two.ok) throw new Error(reasonOf(two));
      expect(await metering.meter.settle(two.hold, 1, ['GetProductOffers'])).toEqual({ charged: 1, remaining: 1 });
      const summary = await metering.admin.summary(accountId);
      expect(summary.usage).toEqual([{ date: '2026-03-01', operation: 'GetProductOffers', interface: 'graphql', calls: 1 }]);
    });

    it('refuses unknown, revoked and expired keys and deleted accounts with one 401 message', async () => {
      const { accountId, key } = await account();
      const other = await account();
      const messages = new Set<string>();
      const expect401 = async (k: string) => {
        const d = denialOf(await metering.meter.admit(call(k)));
        expect(d).toMatchObject({ reason: ErrorReason.INVALID_API_KEY, httpStatus: 401 });
        messages.add(d.message);
      };
      // Well-formed with a valid checksum, but never issued: a key of another deleted account.
      await metering.admin.deleteAccount(other.accountId);
      await expect401(other.key);
      const { key: doomed, info } = await metering.admin.createKey(accountId, { label: 'ci' });
      expect((await metering.meter.admit(call(doomed))).ok).toBe(true);
      expect(await metering.admin.revokeKey(accountId, info.keyId)).toBe(true);
      await expect401(doomed);
      const expiring = await metering.admin.createKey(accountId, { expiresAt: new Date(clock.now() + 60_000).toISOString() });
      expect((await metering.meter.admit(call(expiring.key))).ok).toBe(true);
      clock.advance(60_000);
      await expect401(expiring.key);
      await expect401('rk_garbage');
      expect([...messages]).toEqual(['API key is invalid or missing']);
      expect((await metering.meter.admit(call(key))).ok).toBe(true);
    });

    it('refuses a key with a bad checksum without a store lookup', async () => {
      const { key } = await account();
      const last = key.at(-1) === 'A' ? 'B' : 'A';
      const tampered = key.slice(0, -1) + last;
      const before = { ...metering.counters };
      expect(denialOf(await metering.meter.admit(call(tampered))).httpStatus).toBe(401);
      expect((await metering.meter.authenticate(tampered, 'mcp')).ok).toBe(false);
      expect(metering.counters.storeCalls).toBe(before.storeCalls);
      expect(metering.counters.malformedKeys).toBe(before.malformedKeys + 2);
    });

    it('enforces key scopes (interfaces and operations) with 403', async () => {
      const { accountId } = await metering.admin.createAccount();
      const mcpOnly = await metering.admin.createKey(accountId, { scopes: { operations: [], interfaces: ['mcp'] } });
      const productOnly = await metering.admin.createKey(accountId, { scopes: { operations: ['GetProduct'], interfaces: [] } });
      expect(denialOf(await metering.meter.admit(call(mcpOnly.key)))).toMatchObject({ reason: ErrorReason.PERMISSION_DENIED, httpStatus: 403 });
      expect((await metering.meter.admit(call(mcpOnly.key, { interface: 'mcp' }))).ok).toBe(true);
      const both = call(productOnly.key, { interface: 'graphql', operations: ['GetProduct', 'SearchProducts'] });
      expect(reasonOf(await metering.meter.admit(both))).toBe('PERMISSION_DENIED');
      expect((await metering.meter.admit(call(productOnly.key, { interface: 'graphql' }))).ok).toBe(true);
      expect((await metering.meter.authenticate(mcpOnly.key, 'rest')).ok).toBe(false);
      expect(await metering.admin.listKeys(accountId)).toEqual(
        expect.arrayContaining([expect.objectContaining({ keyId: mcpOnly.info.keyId, scopes: { operations: [], interfaces: ['mcp'] } })]),
      );
    });

    it('answers 403 ACCOUNT_DISABLED for a disabled account until it is enabled again', async () => {
      const { accountId, key } = await account();
      await metering.admin.setDisabled(accountId, true);
      expect(denialOf(await metering.meter.admit(call(key)))).toMatchObject({ reason: ErrorReason.ACCOUNT_DISABLED, httpStatus: 403 });
      const auth = await metering.meter.authenticate(key, 'rest');
      expect(!auth.ok && auth.denial.reason).toBe(ErrorReason.ACCOUNT_DISABLED);
      await metering.admin.setDisabled(accountId, false);
      expect((await metering.meter.admit(call(key))).ok).toBe(true);
      expect((await metering.admin.audit(accountId)).map((e) => e.action)).toEqual(
        expect.arrayContaining(['account.create', 'key.create', 'account.disable', 'account.enable']),
      );
    });

    it('caps active keys per account; a revoked key frees a slot', async () => {
      metering = await open({ maxActiveKeys: 2 });
      const { accountId } = await metering.admin.createAccount();
      const first = await metering.admin.createKey(accountId);
      await metering.admin.createKey(accountId);
      await expect(metering.admin.createKey(accountId)).rejects.toMatchObject({ code: 'KEY_LIMIT' });
      await metering.admin.revokeKey(accountId, first.info.keyId);
      await metering.admin.createKey(accountId, { label: 'third' });
      const keys = await metering.admin.listKeys(accountId);
      expect(keys).toHaveLength(3);
      expect(keys.filter((k) => k.revokedAt)).toHaveLength(1);
      expect(keys.every((k) => k.prefix.startsWith('rk_') && k.prefix.length < 25)).toBe(true);
      expect(JSON.stringify(keys)).not.toContain(first.key);
      const actions = (await metering.admin.audit(accountId)).map((e) => e.action);
      expect(actions.filter((a) => a === 'key.create')).toHaveLength(3);
      expect(actions).toContain('key.revoke');
    });

    it('rate-limits the free plan inside admit: 429 with Retry-After ≥ 1, refilled as the clock moves', async () => {
      const { key } = await account();
      const remaining: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await metering.meter.admit(call(key));
        if (!r.ok) throw new Error(`call ${i}: ${reasonOf(r)}`);
        remaining.push(r.rateLimit.remaining);
        await metering.meter.settle(r.hold, 1);
      }
      expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      const limited = denialOf(await metering.meter.admit(call(key)));
      expect(limited).toMatchObject({ reason: ErrorReason.RATE_LIMITED, httpStatus: 429, retryAfterSeconds: 1 });
      // The message says what to do with the same N as Retry-After, and names no account.
      expect(limited.message).toBe('rate limit of the plan exceeded; retry after 1 s');
      expect(limited.rateLimit).toMatchObject({ policyName: 'free', limit: 10, windowSeconds: 2, remaining: 0 });
      expect(metering.meter.rateLimitHeaders(limited.rateLimit!)).toEqual({
        'RateLimit-Policy': '"free";q=10;w=2',
        'RateLimit': '"free";r=0;t=2',
      });
      clock.advance(200); // 5 per second: one token back
      const refilled = await metering.meter.admit(call(key));
      expect(refilled.ok && refilled.rateLimit.remaining).toBe(0);
      expect(reasonOf(await metering.meter.admit(call(key)))).toBe('RATE_LIMITED');
      clock.advance(2_000);
      const full = await metering.meter.admit(call(key));
      expect(full.ok && full.rateLimit.remaining).toBe(9);
    });

    it('admits a free read (usage history) with one token and no unit or hold: 429 after the burst, and a lookup misses the token a read took', async () => {
      const { accountId, key } = await account(0);
      const remaining: number[] = [];
      for (let i = 0; i < 9; i++) {
        const read = await metering.meter.admitRead(key, '');
        if (!read.ok) throw new Error(`read ${i}: ${ErrorReason[read.denial.reason]}`);
        expect(read.accountId).toBe(accountId);
        remaining.push(read.rateLimit.remaining);
      }
      expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
      // Nothing held: a balance of 0 is no refusal, and nothing comes back later.
      expect(await balance(accountId)).toBe(0);
      await metering.admin.grantUnits(accountId, 1);
      expect(reasonOf(await metering.meter.admit(call(key)))).toBe('ok'); // the 10th token
      const limited = await metering.meter.admitRead(key, 'graphql');
      if (limited.ok) throw new Error('expected a 429');
      expect(limited.denial).toMatchObject({ reason: ErrorReason.RATE_LIMITED, httpStatus: 429, retryAfterSeconds: 1, rateLimit: { policyName: 'free', remaining: 0 } });
      clock.advance(200); // one token back; a read takes it, so the lookup after it is refused
      expect((await metering.meter.admitRead(key, 'mcp')).ok).toBe(true);
      expect(reasonOf(await metering.meter.admit(call(key)))).toBe('RATE_LIMITED');
      // Key and scope first, as an admit: 401 for an unknown key, 403 for an interface the key lacks (not for '').
      expect((await metering.meter.admitRead('rk_live_notakey', '')).ok).toBe(false);
      clock.advance(2_000);
      const mcpOnly = await metering.admin.createKey(accountId, { scopes: { operations: [], interfaces: ['mcp'] } });
      const scoped = await metering.meter.admitRead(mcpOnly.key, 'rest');
      expect(scoped.ok ? 'ok' : ErrorReason[scoped.denial.reason]).toBe('PERMISSION_DENIED');
      expect((await metering.meter.admitRead(mcpOnly.key, '')).ok).toBe(true);
      expect(await balance(accountId)).toBe(0); // the one lookup's unit is held, never settled here
    });

    it('takes a batch\'s item count from the bucket: a cost above what is left waits for it, one above the burst needs a full bucket and leaves a debt', async () => {
      const { key } = await account(1_000);
      const batch = (rateCost: number) => metering.meter.admit(call(key, { operations: Array.from({ length: rateCost }, () => 'GetProduct'), rateCost }));
      const five = await batch(5);
      expect(five.ok && five.rateLimit.remaining).toBe(5);
      // 5 tokens left: a batch of 7 waits for 2 more (0.4 s at 5 per second, Retry-After 1).
      expect(denialOf(await batch(7))).toMatchObject({ reason: ErrorReason.RATE_LIMITED, retryAfterSeconds: 1 });
      // 25 items on a burst of 10: refused until the bucket is full, then admitted into a debt of 15.
      const refused = denialOf(await batch(25));
      expect(refused.retryAfterSeconds).toBe(1); // (10 − 5) / 5 per second
      clock.advance(1_000);
      const big = await batch(25);
      if (!big.ok) throw new Error(reasonOf(big));
      expect(big.rateLimit).toMatchObject({ remaining: 0, resetSeconds: 5 }); // from −15 back to 10 at 5 per second
      // The debt holds every call back: one token needs (1 − (−15)) / 5 = 3.2 s, so Retry-After 4.
      expect(denialOf(await metering.meter.admit(call(key)))).toMatchObject({ reason: ErrorReason.RATE_LIMITED, retryAfterSeconds: 4 });
      clock.advance(3_000);
      expect(reasonOf(await metering.meter.admit(call(key)))).toBe('RATE_LIMITED');
      clock.advance(200);
      expect(reasonOf(await metering.meter.admit(call(key)))).toBe('ok');
    });

    it('checks scope and rate limit before shape, and holds nothing for a bad shape', async () => {
      const { accountId, key } = await account(5);
      const shape = await metering.meter.admit(call(key, { shapeValid: false }));
      expect(shape).toMatchObject({ ok: false, shape: true, rateLimit: { policyName: 'free', remaining: 9 } });
      expect(await balance(accountId)).toBe(5);
      const scoped = await metering.admin.createKey(accountId, { scopes: { operations: ['GetSeller'], interfaces: [] } });
      expect(reasonOf(await metering.meter.admit(call(scoped.key, { shapeValid: false })))).toBe('PERMISSION_DENIED');
      for (let i = 0; i < 9; i++) await metering.meter.admit(call(key, { shapeValid: false }));
      expect(reasonOf(await metering.meter.admit(call(key, { shapeValid: false })))).toBe('RATE_LIMITED');
      expect(await balance(accountId)).toBe(5);
    });

    it('lets an unlimited plan through without a rate limit, rendering finite headers', async () => {
      const { accountId, key } = await account(100);
      expect(await metering.admin.accountPlan(accountId)).toBe('free');
      await metering.admin.setPlan(accountId, 'unlimited');
      expect(await metering.admin.accountPlan(accountId)).toBe('unlimited');
      let last: AdmitResult | undefined;
      for (let i = 0; i < 30; i++) last = await metering.meter.admit(call(key));
      expect(last?.ok).toBe(true);
      if (last?.ok) {
        expect(last.rateLimit.policyName).toBe('unlimited');
        expect(metering.meter.rateLimitHeaders(last.rateLimit)['RateLimit-Policy']).toMatch(/^"unlimited";q=\d+;w=1$/);
      }
      await expect(metering.admin.setPlan(accountId, 'gold')).rejects.toBeInstanceOf(MeteringAdminError);
      expect((await metering.admin.grantUnits(accountId, 50)).balance).toBe(100 - 30 + 50);
    });

    it('authenticates free calls without charging or taking a rate token', async () => {
      const { accountId, key } = await account();
      for (let i = 0; i < 15; i++) {
        const auth = await metering.meter.authenticate(key, 'mcp');
        expect(auth).toMatchObject({ ok: true, accountId, rateLimit: { remaining: 10 } });
      }
      expect(await balance(accountId)).toBe(100);
    });

    it('summarises balance, plan and usage per day, operation and interface for any valid key', async () => {
      const { accountId, key } = await account();
      const run = async (operation: string, iface: Interface, ok: boolean) => {
        const r = await metering.meter.admit(call(key, { operations: [operation], interface: iface }));
        if (!r.ok) throw new Error(reasonOf(r));
        await metering.meter.settle(r.hold, ok ? 1 : 0);
      };
      await run('GetProduct', 'rest', true);
      await run('GetProduct', 'mcp', true);
      await run('SearchProducts', 'graphql', false);
      clock.advance(86_400_000);
      await run('SearchProducts', 'rest', true);
      const summary = await metering.meter.accountSummary(key);
      expect(summary).toMatchObject({ accountId, plan: 'free', balance: 97 });
      if ('usage' in summary) {
        // One row per interface: the console names each call as its caller made it.
        expect([...summary.usage].sort((a, b) => a.date.localeCompare(b.date) || a.interface!.localeCompare(b.interface!))).toEqual([
          { date: '2026-03-01', operation: 'GetProduct', interface: 'mcp', calls: 1 },
          { date: '2026-03-01', operation: 'GetProduct', interface: 'rest', calls: 1 },
          { date: '2026-03-02', operation: 'SearchProducts', interface: 'rest', calls: 1 },
        ]);
      }
      const recent = await metering.admin.recentUsage(accountId, 2);
      const keyId = (await metering.admin.listKeys(accountId))[0]!.keyId;
      expect(recent).toEqual([
        { at: new Date(clock.now()).toISOString(), operation: 'SearchProducts', interface: 'rest', keyId },
        { at: new Date(clock.now() - 86_400_000).toISOString(), operation: 'GetProduct', interface: 'mcp', keyId },
      ]);
      expect(await metering.admin.recentUsage(accountId)).toHaveLength(3);
      const refused = await metering.meter.accountSummary('rk_nope');
      expect(refused).toMatchObject({ httpStatus: 401 });
    });

    it('writes lastUsedAt on settle at most once a minute per key', async () => {
      const { accountId, key } = await account(10, 'unlimited');
      const use = async () => {
        const r = await metering.meter.admit(call(key));
        if (r.ok) await metering.meter.settle(r.hold, 1);
      };
      const lastUsed = async () => (await metering.admin.listKeys(accountId))[0]!.lastUsedAt;
      expect(await lastUsed()).toBeUndefined();
      await use();
      const first = await lastUsed();
      expect(first).toBe(new Date(clock.now()).toISOString());
      clock.advance(30_000);
      await use();
      expect(await lastUsed()).toBe(first);
      clock.advance(31_000);
      await use();
      expect(await lastUsed()).toBe(new Date(clock.now()).toISOString());
    });

    it('deletes an account with its keys and usage', async () => {
      const { accountId, key } = await account();
      const r = await metering.meter.admit(call(key));
      if (r.ok) await metering.meter.settle(r.hold, 1);
      await metering.admin.deleteAccount(accountId);
      expect(reasonOf(await metering.meter.admit(call(key)))).toBe('INVALID_API_KEY');
      await expect(metering.admin.summary(accountId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(metering.admin.listKeys(accountId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await metering.admin.audit(accountId)).toEqual([]);
      await expect(metering.admin.deleteAccount(accountId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });
}
