/**
 * `npm start` keeps the ledger across a restart on the same data directory (issue 24): the printed key
 * and a key made in the console still work, the balance is what the calls left, and the record in
 * PGlite holds the accounts, the keys as hashes, the usage and the audit trail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '@retail/database';
import { ConsoleClient, uniqueEmail } from '../console/harness.js';
import { startOneProcess } from '../harness/one-process.js';

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
    let balances: [number, number];
    try {
      printedKey = first.stack.devKey;
      const console_ = new ConsoleClient(`${first.stack.url}/console`);
      expect((await console_.signUp(uniqueEmail('restart'))).status).toBe(201);
      const created = await console_.post('keys', { label: 'made in the console' });
      expect(created.status).toBe(201);
      consoleKey = created.body.data.key as string;
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
      expect(second.stack.devKey).not.toBe(printedKey);
      expect([await balanceOf(second.stack.url, printedKey), await balanceOf(second.stack.url, consoleKey)]).toEqual(balances);
      const again = await product(second.stack.url, consoleKey);
      expect(again.status).toBe(200);
      expect(await balanceOf(second.stack.url, consoleKey)).toBe(balances[1] - 1);
    } finally {
      await second.stop();
    }

    // The record, once the process has let go of the directory.
    const db = await createPgliteDatabase(dataDir);
    try {
      const usage = await db.query<{ units: number }>('SELECT units FROM ledger_usage');
      expect(usage.map((row) => row.units)).toEqual([1, 1, 1, 1]);
      const keys = await db.query<{ hash: string; prefix: string }>('SELECT hash, prefix FROM ledger_keys');
      expect(keys.length).toBeGreaterThanOrEqual(3);
      for (const key of [printedKey, consoleKey]) expect(JSON.stringify(keys)).not.toContain(key);
      const audit = await db.query<{ action: string }>(`SELECT action FROM ledger_audit WHERE action = 'key.create'`);
      expect(audit.length).toBe(keys.length);
    } finally {
      await db.close();
    }
  }, 120_000);
});
