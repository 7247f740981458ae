/**
 * Console users in PostgreSQL (issue 24), with the ledger and the sessions on a real redis-server: a
 * user signed up before the Redis was lost signs in again afterwards and finds the same account (the
 * ledger restores it from its record), an invite spent stays spent, the email stays taken, and a user
 * only the Redis knew (made before the database held users) is copied in on first sight.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { createRecordedUserStore, createRedisUserStore, hashPassword, type UserStore } from '@retail/console';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { ConsoleClient, GOOD_PASSWORD, startConsole, TEST_PASSWORD_COST, uniqueEmail, type RunningConsole } from './harness.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('console users in the database', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let db: Database;
  let metering: MeteringInstance;
  let users: UserStore;
  let server: RunningConsole;
  let inspect: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('console_users');
    db = createPostgresDatabase({ connectionString: test.url });
    metering = await createMetering({ redisUrl: redis.url, record: db, log: () => undefined });
    users = createRecordedUserStore({ database: db, fast: createRedisUserStore({ url: redis.url }) });
    server = await startConsole({ metering, users, signupMode: 'invite', invites: ['TEAM-2026', 'SPARE-2026'] });
    inspect = new Redis(redis.url);
  });
  afterAll(async () => {
    inspect?.disconnect();
    await server?.close();
    await users?.close();
    await metering?.close();
    await db?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('signs a user in again after the Redis is lost, to the same account and keys', async () => {
    const email = uniqueEmail('kept');
    const before = new ConsoleClient(server.base);
    expect((await before.signUp(email, GOOD_PASSWORD, { inviteCode: 'TEAM-2026' })).status).toBe(201);
    const key = (await before.post('keys', { label: 'kept' })).body.data.info.keyId as string;
    const accountId = (await before.get('account')).body.data.accountId as string;

    await inspect.flushall();

    // The session went with the Redis; the user did not.
    expect((await before.get('account')).status).toBe(401);
    const after = new ConsoleClient(server.base);
    expect((await after.signIn(email, 'a wrong password here')).status).toBe(401);
    expect((await after.signIn(email)).status).toBe(200);
    expect((await after.get('account')).body.data.accountId).toBe(accountId);
    expect(((await after.get('keys')).body.data.keys as Array<{ keyId: string }>).map((k) => k.keyId)).toEqual([key]);
    // The email is still taken and the invite still spent.
    expect((await new ConsoleClient(server.base).signUp(email, GOOD_PASSWORD, { inviteCode: 'SPARE-2026' })).status).toBe(409);
    expect((await new ConsoleClient(server.base).signUp(uniqueEmail(), GOOD_PASSWORD, { inviteCode: 'TEAM-2026' })).status).toBe(403);

    const [row] = await db.query<{ password_hash: string; account_id: string }>('SELECT password_hash, account_id FROM console_users WHERE email = $1', [email]);
    expect(row!.account_id).toBe(accountId);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain(GOOD_PASSWORD);
  });

  it('copies in a user only the Redis had (made before the database held users)', async () => {
    const email = uniqueEmail('older');
    const { accountId } = await metering.admin.createAccount();
    const older = createRedisUserStore({ url: redis.url });
    try {
      expect(await older.reserveEmail(email, 'user-older-1')).toBe(true);
      await older.saveUser({ userId: 'user-older-1', email, passwordHash: await hashPassword(GOOD_PASSWORD, TEST_PASSWORD_COST), accountId, createdAt: new Date().toISOString() });
    } finally {
      await older.close();
    }
    const client = new ConsoleClient(server.base);
    expect((await client.signIn(email)).status).toBe(200);
    expect((await client.get('account')).body.data.accountId).toBe(accountId);
    const [row] = await db.query<{ user_id: string }>('SELECT user_id FROM console_users WHERE email = $1', [email]);
    expect(row!.user_id).toBe('user-older-1');
  });
});
