/**
 * The admin CLI with a record (LEDGER_DATABASE_URL): its writes land in PostgreSQL first, and
 * `usage history` reads the usage log as JSON or CSV; without a record it says what to set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { runAdminCli } from '../../../gateways/metering/src/admin/commands.js';
import { createMetering } from '../../../gateways/metering/src/index.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import { spend } from './record-suite.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('admin CLI with the record', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let db: Database;
  const cli = async (env: Record<string, string>, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('ledger_cli');
    db = createPostgresDatabase({ connectionString: test.url });
  });
  afterAll(async () => {
    await db?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('creates a key through the record and prints usage history as CSV', async () => {
    const env = { LEDGER_REDIS_URL: redis.url, LEDGER_DATABASE_URL: test.url };
    const created = await cli(env, 'key', 'create', '--units', '20', '--label', 'cli');
    expect(created.code).toBe(0);
    const key = created.out;
    const [account] = await db.query<{ account_id: string }>('SELECT account_id FROM ledger_keys');
    const accountId = account!.account_id;
    expect(key).toContain(accountId);

    const metering = await createMetering({ redisUrl: redis.url, record: db, log: () => undefined });
    expect(await spend(metering, key, 3)).toBe(3);
    await metering.close();

    const csv = await cli(env, 'usage', 'history', accountId, '--group-by', 'interface,operation', '--csv');
    expect(csv.code).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(csv.out.split('\r\n')).toEqual(['period,operation,interface,calls,units', `${today}T00:00:00.000Z,GetProduct,rest,3,3`]);
    const json = await cli(env, 'usage', 'history', accountId, '--granularity', 'minute');
    expect(json.code).toBe(2); // a bad argument, worded as the API words it
    expect(json.err).toContain('--granularity: granularity must be one of day, hour; got "minute"');

    const withoutRecord = await cli({ LEDGER_REDIS_URL: redis.url }, 'usage', 'history', accountId);
    expect(withoutRecord.code).toBe(2);
    expect(withoutRecord.err).toContain('set LEDGER_DATABASE_URL');
  }, 60_000);
});
