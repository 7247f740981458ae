/**
 * The console's usage route (`GET /console/api/account/usage`) over real HTTP: the session's account
 * only (another user's calls never show), the session required, the same checks as the REST route, and
 * a clear 501 where the ledger keeps no record (the session then says `usageHistory: false`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgliteDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { ConsoleClient, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

describe('the console usage route', () => {
  let db: Database;
  let metering: MeteringInstance;
  let plain: MeteringInstance;
  let recorded: RunningConsole;
  let unrecorded: RunningConsole;

  beforeAll(async () => {
    db = await createPgliteDatabase();
    metering = await createMetering({ record: db, log: () => undefined });
    plain = await createMetering();
    recorded = await startConsole({ metering, usageHistory: metering.usageHistory });
    unrecorded = await startConsole({ metering: plain });
  });
  afterAll(async () => {
    await recorded?.close();
    await unrecorded?.close();
    await metering?.close();
    await plain?.close();
    await db?.close();
  });

  /** Signs a user up, makes a key and charges `calls` calls with it; the key id. */
  async function userWithCalls(client: ConsoleClient, calls: number): Promise<string> {
    await client.signUp(uniqueEmail('usage-api'));
    const created = await client.post('keys', { label: 'k' });
    for (let i = 0; i < calls; i++) {
      const admitted = await metering.meter.admit({ key: created.body.data.key, interface: 'mcp', operations: ['GetSeller'], shapeValid: true, requestId: `r${i}` });
      if (!admitted.ok) throw new Error('refused');
      await metering.meter.settle(admitted.hold, 1);
    }
    return created.body.data.info.keyId as string;
  }

  it('answers the signed-in account\'s rows only, as JSON and CSV', async () => {
    const mine = new ConsoleClient(recorded.base);
    const theirs = new ConsoleClient(recorded.base);
    const myKey = await userWithCalls(mine, 3);
    const theirKey = await userWithCalls(theirs, 2);
    expect((await mine.get('session')).body.data.usageHistory).toBe(true);
    await vi.waitFor(async () => {
      expect((await mine.get('account/usage?groupBy=key,interface')).body.data.retailUsage.rows.map(({ period: _p, ...rest }: Record<string, unknown>) => rest))
        .toEqual([{ keyId: myKey, interface: 'mcp', calls: 3, units: 3 }]);
    }, { timeout: 10_000, interval: 100 });
    await vi.waitFor(async () => {
      expect((await theirs.get('account/usage?groupBy=key')).body.data.retailUsage.rows.map((r: { keyId: string; calls: number }) => [r.keyId, r.calls])).toEqual([[theirKey, 2]]);
    }, { timeout: 10_000, interval: 100 });
    const csv = await fetch(`${recorded.base}/api/account/usage?groupBy=operation&format=csv`, { headers: { cookie: mine.cookie! } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).split('\r\n').slice(0, 2)).toEqual(['period,operation,calls,units', expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z,GetSeller,3,3$/)]);
  });

  it('refuses without a session (401) and bad input with a 400 naming the parameter', async () => {
    const anonymous = new ConsoleClient(recorded.base);
    await anonymous.get('session');
    expect((await anonymous.get('account/usage')).status).toBe(401);
    const client = new ConsoleClient(recorded.base);
    await client.signUp(uniqueEmail('usage-api'));
    for (const [query, parameter] of [['from=soon', 'from'], ['granularity=hour&from=2026-01-01&to=2026-03-01', 'from'], ['groupBy=account', 'groupBy'], ['format=xml', 'format'], ['keyId=x', 'keyId']] as const) {
      const answer = await client.get(`account/usage?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0].path, query).toEqual(['query', parameter]);
    }
  });

  it('answers 501 where the ledger keeps no record', async () => {
    const client = new ConsoleClient(unrecorded.base);
    await client.signUp(uniqueEmail('usage-api'));
    expect((await client.get('session')).body.data.usageHistory).toBe(false);
    const answer = await client.get('account/usage');
    expect(answer.status).toBe(501);
    expect(answer.body.errors[0].message).toMatch(/record/);
  });
});
