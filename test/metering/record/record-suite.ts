/**
 * What the ledger record must do on any engine (PGlite in memory, a real PostgreSQL): the logs add up
 * to the balance, keys are kept as hashes, usage is written once per hold, and a metering whose store
 * is empty (a restarted one-process stack, a flushed Redis) serves the same keys and balances again.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '@retail/database';
import type { AdmitRequest, MeteringInstance, MeteringOptions } from '../../../gateways/metering/src/index.js';
import { createMetering, usageCsv, type UsageGroup } from '../../../gateways/metering/src/index.js';
import { generateKey } from '../../../gateways/metering/src/keys.js';
import { createLedgerRecord } from '../../../gateways/metering/src/record/ledger-record.js';
import { migrateRecord } from '../../../gateways/metering/src/record/migrate.js';
import { until } from '../../harness/until.js';
import { fakeClock } from '../ledger-suite.js';

export type DatabaseFactory = () => Promise<Database>;

const call = (key: string): AdmitRequest => ({ key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: 'r' });

/** Admits and settles `n` successful calls; the units charged. */
export async function spend(metering: MeteringInstance, key: string, n: number): Promise<number> {
  let charged = 0;
  for (let i = 0; i < n; i++) {
    const admitted = await metering.meter.admit(call(key));
    if (!admitted.ok) throw new Error(`call ${i} refused: ${JSON.stringify(admitted)}`);
    charged += (await metering.meter.settle(admitted.hold, 1)).charged;
  }
  return charged;
}

export interface RecordSuiteOptions {
  /** Options of every metering (the Redis tests give theirs). */
  readonly metering?: () => Partial<MeteringOptions>;
  /** Empties the store between the two meterings (a Redis FLUSHALL; memory stores start empty). */
  readonly emptyStore?: () => Promise<void>;
}

export function recordSuite(name: string, open: DatabaseFactory, suite: RecordSuiteOptions = {}): void {
  const options = () => suite.metering?.() ?? {};
  const emptyStore = () => suite.emptyStore?.() ?? Promise.resolve();
  describe(`ledger record (${name})`, () => {
    it('keeps accounts, keys as hashes, the credit log and the audit trail; the balance is credits − debits', async () => {
      const db = await open();
      await migrateRecord(db);
      const record = createLedgerRecord(db);
      const at = '2026-03-01T12:00:00.000Z';
      expect(await record.createAccount('acct00000001', 100, 'free', { at, action: 'account.create' })).toBe(true);
      expect(await record.createAccount('acct00000001', 5, 'free', { at, action: 'account.create' })).toBe(false);
      expect(await record.grantUnits('acct00000001', 50, { at, action: 'account.grant', detail: 'units=50' })).not.toBeNull();
      expect(await record.grantUnits('nosuchacct01', 50, { at, action: 'account.grant' })).toBeNull();
      const key = { keyId: 'k1', hash: 'ab'.repeat(32), prefix: 'rk_live_ab', operations: [], interfaces: ['rest' as const], createdAt: Date.parse(at) };
      expect(await record.createKey('acct00000001', key, { at, action: 'key.create', keyId: 'k1' })).toBe(true);
      const rows = [1, 2, 3].map((i) => ({ accountId: 'acct00000001', holdId: `h${i}`, keyId: 'k1', iface: 'rest' as const, operations: ['GetProduct'], units: 1, at: Date.parse(at) }));
      expect(await record.recordUsage(rows)).toBe(3);
      // Delivered again (a retried hand-off): nothing is written twice.
      expect(await record.recordUsage([...rows, { ...rows[0]!, holdId: 'h4', units: 2, operations: ['GetProduct', 'GetOffers'] }])).toBe(1);
      const snapshot = await record.accountSnapshot('acct00000001');
      expect(snapshot).toMatchObject({ plan: 'free', disabled: false, balance: 100 + 50 - 3 - 2 });
      expect(snapshot!.keys).toEqual([{ ...key, label: undefined, expiresAt: undefined, revokedAt: undefined }]);
      const stored = await db.query<{ hash: string }>('SELECT * FROM ledger_keys');
      expect(JSON.stringify(stored)).not.toMatch(/rk_live_[A-Za-z0-9]{20}/);
      expect((await record.audit('acct00000001', 10)).map((e) => e.action)).toEqual(['key.create', 'account.grant', 'account.create']);
      expect(await record.deleteAccount('acct00000001', Date.parse(at))).toBe(true);
      expect(await record.accountSnapshot('acct00000001')).toBeNull();
      expect(await record.grantUnits('acct00000001', 1, { at, action: 'account.grant' })).toBeNull();
      await db.close();
    });

    it('serves the same keys and balance from an empty store after a restart, with revocations and the plan kept', async () => {
      const db = await open();
      const clock = fakeClock();
      const log: string[] = [];
      const first = await createMetering({ clock: clock.now, record: db, log: (l) => log.push(l), ...options() });
      const { accountId } = await first.admin.createAccount({ units: 40 });
      const { key } = await first.admin.createKey(accountId, { label: 'kept' });
      clock.advance(1_000);
      const { key: revoked, info } = await first.admin.createKey(accountId, { label: 'revoked' });
      await first.admin.revokeKey(accountId, info.keyId);
      await first.admin.grantUnits(accountId, 10);
      await first.admin.setPlan(accountId, 'development');
      expect(await spend(first, key, 7)).toBe(7);
      await first.close();

      // A second metering on an empty store (memory: a restarted process; Redis: a flushed one).
      await emptyStore();
      const second = await createMetering({ clock: clock.now, record: db, log: (l) => log.push(l), ...options() });
      const admitted = await second.meter.admit(call(key));
      expect(admitted.ok && admitted.balance).toBe(40 + 10 - 7 - 1);
      expect(log.some((line) => line.includes(`restored account ${accountId}`))).toBe(true);
      const again = await second.meter.admit(call(revoked));
      expect(!again.ok && !again.shape && again.denial.httpStatus).toBe(401);
      expect(await second.admin.accountPlan(accountId)).toBe('development');
      expect((await second.admin.listKeys(accountId)).map((k) => [k.label, k.revokedAt !== undefined])).toEqual([['kept', false], ['revoked', true]]);
      expect((await second.admin.audit(accountId)).map((e) => e.action).slice(0, 6))
        .toEqual(['account.plan', 'account.grant', 'key.revoke', 'key.create', 'key.create', 'account.create']);
      await second.close();
      await db.close();
    });

    it('shows the same recent days in the account summary after a restart: the log fills in what the empty store\'s counters lost', async () => {
      const db = await open();
      const clock = fakeClock();
      const first = await createMetering({ clock: clock.now, record: db, ...options() });
      const { accountId } = await first.admin.createAccount({ units: 40 });
      const { key } = await first.admin.createKey(accountId);
      expect(await spend(first, key, 3)).toBe(3);
      const today = new Date(clock.now()).toISOString().slice(0, 10);
      const before = (await first.admin.summary(accountId)).usage;
      expect(before).toEqual([{ date: today, operation: 'GetProduct', interface: 'rest', calls: 3 }]);
      await first.close();

      await emptyStore();
      const second = await createMetering({ clock: clock.now, record: db, ...options() });
      // The restored account's counters start empty; the summary still has the day's three calls.
      expect((await second.admin.summary(accountId)).usage).toEqual(before);
      const summary = await second.meter.accountSummary(key);
      expect('usage' in summary && summary.usage).toEqual(before);
      // A call after the restart: the counters (1) trail the log until it has the call, then the log counts it (4).
      expect(await spend(second, key, 1)).toBe(1);
      await until(async () => (await second.admin.summary(accountId)).usage[0]?.calls === 4, 'the fourth call in the summary');
      expect((await second.admin.summary(accountId)).usage).toEqual([{ date: today, operation: 'GetProduct', interface: 'rest', calls: 4 }]);
      await second.close();
      await db.close();
    });

    it('answers usage history per day or hour, grouped by key, operation and interface, and as CSV', async () => {
      const db = await open();
      const clock = fakeClock(Date.parse('2026-03-01T12:00:00Z'));
      const first = await createMetering({ clock: clock.now, record: db, log: () => undefined, ...options() });
      const { accountId } = await first.admin.createAccount({ units: 100 });
      const one = await first.admin.createKey(accountId, { label: 'one' });
      const two = await first.admin.createKey(accountId, { label: 'two' });
      expect(await spend(first, one.key, 3)).toBe(3);
      const both = await first.meter.admit({ key: one.key, interface: 'graphql', operations: ['GetProduct', 'GetOffers'], shapeValid: true, requestId: 'g' });
      if (!both.ok) throw new Error('graphql call refused');
      expect((await first.meter.settle(both.hold, 2)).charged).toBe(2);
      clock.advance(86_400_000 + 3_600_000);
      expect(await spend(first, two.key, 1)).toBe(1);
      await first.close(); // writes what the hand-off holds

      const reader = await createMetering({ clock: clock.now, record: db, log: () => undefined, ...options() });
      const history = reader.usageHistory!;
      const range = { from: Date.parse('2026-03-01T00:00:00Z'), to: Date.parse('2026-03-03T00:00:00Z') };
      expect(await history(accountId, { ...range, granularity: 'day', groupBy: [] })).toEqual([
        { period: '2026-03-01T00:00:00.000Z', calls: 4, units: 5 },
        { period: '2026-03-02T00:00:00.000Z', calls: 1, units: 1 },
      ]);
      expect(await history(accountId, { ...range, granularity: 'day', groupBy: ['key'] })).toEqual([
        { period: '2026-03-01T00:00:00.000Z', keyId: one.info.keyId, calls: 4, units: 5 },
        { period: '2026-03-02T00:00:00.000Z', keyId: two.info.keyId, calls: 1, units: 1 },
      ]);
      const perOperation = await history(accountId, { ...range, granularity: 'hour', groupBy: ['interface', 'operation'] });
      expect(perOperation).toEqual([
        { period: '2026-03-01T12:00:00.000Z', operation: 'GetOffers', interface: 'graphql', calls: 1, units: 1 },
        { period: '2026-03-01T12:00:00.000Z', operation: 'GetProduct', interface: 'graphql', calls: 1, units: 1 },
        { period: '2026-03-01T12:00:00.000Z', operation: 'GetProduct', interface: 'rest', calls: 3, units: 3 },
        { period: '2026-03-02T13:00:00.000Z', operation: 'GetProduct', interface: 'rest', calls: 1, units: 1 },
      ]);
      expect(usageCsv(perOperation.slice(0, 1), ['operation', 'interface'])).toBe('period,operation,interface,calls,units\r\n2026-03-01T12:00:00.000Z,GetOffers,graphql,1,1\r\n');
      for (const bad of [
        { ...range, to: range.from, granularity: 'day' as const, groupBy: [] },
        { from: range.from, to: range.from + 40 * 86_400_000, granularity: 'hour' as const, groupBy: [] },
        { ...range, granularity: 'day' as const, groupBy: ['customer' as UsageGroup] },
      ]) {
        await expect(history(accountId, bad)).rejects.toMatchObject({ name: 'MeteringAdminError', code: 'INVALID' });
      }
      await reader.close();
      await db.close();
    });

    it('does not restore a deleted account, and answers 401 for an account nobody made', async () => {
      const db = await open();
      const first = await createMetering({ record: db, log: () => undefined, ...options() });
      const { accountId } = await first.admin.createAccount();
      const { key } = await first.admin.createKey(accountId);
      await first.admin.deleteAccount(accountId);
      await first.close();
      await emptyStore();
      const second = await createMetering({ record: db, log: () => undefined, ...options() });
      const refused = await second.meter.admit(call(key));
      expect(!refused.ok && !refused.shape && refused.denial.httpStatus).toBe(401);
      const invented = await second.meter.admit(call(generateKey('nobodymade00').key));
      expect(!invented.ok && !invented.shape && invented.denial.httpStatus).toBe(401);
      await second.close();
      await db.close();
    });
  });
}
