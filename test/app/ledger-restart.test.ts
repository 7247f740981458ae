/**
 * `npm start` keeps the ledger across a restart on the same data directory (issue 24): the printed key
 * and a key made in the console still work, the balance is what the calls left, and the record in
 * PGlite holds the accounts, the keys as hashes, the usage and the audit trail. The console's user
 * signs in again and finds the same account and keys; the development account and key are the same
 * ones, and restarts pile up neither accounts nor keys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '@retail/database';
import { ConsoleClient, uniqueEmail } from '../console/harness.js';
import { startOneProcess } from '../harness/one-process.js';
import { formatBanner } from '../../app/src/welcome.js';

const dataDir = mkdtempSync(join(tmpdir(), 'ledger-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const balanceOf = async (url: string, key: string) => {
  const response = await fetch(`${url}/api/account`, { headers: { 'API-KEY': key } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { balance: number } }).data.balance;
};

const product = (url: string, key: string) => fetch(`${url}/api/retail/product?asin=B0FXTUS001`, { headers: { 'API-KEY': key } });

describe('the ledger across a restart of npm start', () => {
  it('serves the printed key and a console key again, with the balance the calls left', async () => {
    const first = await startOneProcess({ WATCHER_DATA_DIR: dataDir });
    let printedKey: string;
    let consoleKey: string;
    let consoleAccount: string;
    let consoleKeyIds: string[];
    let balances: [number, number];
    const email = uniqueEmail('restart');
    try {
      printedKey = first.stack.devKey;
      expect(first.stack.devAccountReused).toBe(false);
      const console_ = new ConsoleClient(`${first.stack.url}/console`);
      expect((await console_.signUp(email)).status).toBe(201);
      const created = await console_.post('keys', { label: 'made in the console' });
      expect(created.status).toBe(201);
      consoleKey = created.body.data.key as string;
      consoleAccount = (await console_.get('account')).body.data.accountId as string;
      consoleKeyIds = ((await console_.get('keys')).body.data.keys as Array<{ keyId: string }>).map((k) => k.keyId);
      for (const key of [printedKey, printedKey, consoleKey]) {
        const response = await product(first.stack.url, key);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-units-charged')).toBe('1');
      }
      balances = [await balanceOf(first.stack.url, printedKey), await balanceOf(first.stack.url, consoleKey)];
      expect(balances[0]).toBe(first.stack.devUnits - 2);
    } finally {
      await first.stop();
    }

    const second = await startOneProcess({ WATCHER_DATA_DIR: dataDir });
    try {
      // The same development account and key, with the balance the calls left; the banner says so.
      expect(second.stack.devKey).toBe(printedKey);
      expect(second.stack.devAccountId).toBe(first.stack.devAccountId);
      expect(second.stack.devAccountReused).toBe(true);
      expect(second.stack.devBalance).toBe(balances[0]);
      const banner = formatBanner(second.stack, { upstream: 'test' });
      expect(banner).toMatch(new RegExp(`Plan +development: .*; ${balances[0]} units  \\(account ${first.stack.devAccountId}\\)`));
      expect(banner).toMatch(/Development account +the same as at the last start {2}\(key kept in .*development-key\.json\)/);
      expect(formatBanner(first.stack, { upstream: 'test' })).toMatch(/Development account +new {2}\(later starts on this data directory keep it/);
      expect([await balanceOf(second.stack.url, printedKey), await balanceOf(second.stack.url, consoleKey)]).toEqual(balances);
      const again = await product(second.stack.url, consoleKey);
      expect(again.status).toBe(200);
      expect(await balanceOf(second.stack.url, consoleKey)).toBe(balances[1] - 1);

      // The console's user: their session ended with the process, their sign-in did not.
      const console_ = new ConsoleClient(`${second.stack.url}/console`);
      expect((await console_.get('account')).status).toBe(401);
      expect((await console_.signIn(email, 'not the password 123')).status).toBe(401);
      expect((await console_.signIn(email)).status).toBe(200);
      const account = await console_.get('account');
      expect(account.body.data).toMatchObject({ accountId: consoleAccount, balance: balances[1] - 1 });
      expect(((await console_.get('keys')).body.data.keys as Array<{ keyId: string }>).map((k) => k.keyId)).toEqual(consoleKeyIds);
      // The email stays taken.
      expect((await new ConsoleClient(`${second.stack.url}/console`).signUp(email)).status).toBe(409);
    } finally {
      await second.stop();
    }

    // A third start: still the same account and key, and no account or key made for it.
    const third = await startOneProcess({ WATCHER_DATA_DIR: dataDir });
    try {
      expect(third.stack.devKey).toBe(printedKey);
      expect(third.stack.devAccountReused).toBe(true);
    } finally {
      await third.stop();
    }

    // The record, once the process has let go of the directory.
    const db = await createPgliteDatabase(dataDir);
    try {
      const usage = await db.query<{ units: number }>('SELECT units FROM ledger_usage');
      expect(usage.map((row) => row.units)).toEqual([1, 1, 1, 1]);
      // Two accounts (the development one and the console user's) and three keys, after three starts.
      const accounts = await db.query<{ account_id: string }>('SELECT account_id FROM ledger_accounts ORDER BY account_id');
      expect(accounts.map((row) => row.account_id)).toEqual([first.stack.devAccountId, consoleAccount].sort());
      const users = await db.query<{ email: string; account_id: string; password_hash: string }>('SELECT email, account_id, password_hash FROM console_users');
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ email, account_id: consoleAccount });
      expect(users[0]!.password_hash).toMatch(/^scrypt\$/);
      const keys = await db.query<{ hash: string; prefix: string }>('SELECT hash, prefix FROM ledger_keys');
      expect(keys.length).toBe(2);
      for (const key of [printedKey, consoleKey]) expect(JSON.stringify(keys)).not.toContain(key);
      const audit = await db.query<{ action: string }>(`SELECT action FROM ledger_audit WHERE action = 'key.create'`);
      expect(audit.length).toBe(keys.length);
    } finally {
      await db.close();
    }
  }, 120_000);
});
