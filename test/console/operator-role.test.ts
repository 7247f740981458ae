/**
 * The operator role in each user store the console runs on: memory (embedded), Redis (a real
 * redis-server from the harness) and the database (real PostgreSQL, migration 0002). One behaviour
 * for all three: granted and revoked by email, each change with its audit entry, a no-op leaving
 * none, and nothing a request can send making anyone an operator.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetering } from '@retail/metering';
import { createMemoryUserStore, createRecordedUserStore, createRedisUserStore, setOperatorRole, type UserStore } from '@retail/console';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { ConsoleClient, startConsole, uniqueEmail } from './harness.js';

const noPostgres = await postgresMissing();
const noRedis = redisMissing();
for (const reason of [noPostgres, noRedis]) if (reason) console.warn(`[skip] ${reason}`);

let redis: RedisServer | undefined;
let test: TestDatabase | undefined;
let db: Database | undefined;
const opened: UserStore[] = [];

beforeAll(async () => {
  if (!noRedis) redis = await startRedis();
  if (!noPostgres) {
    test = await createTestDatabase('console_operator_role');
    db = createPostgresDatabase({ connectionString: test.url });
  }
});
afterAll(async () => {
  for (const store of opened) await store.close();
  await db?.close();
  await test?.drop();
  await redis?.stop();
});

const STORES: Array<[string, string | null, () => UserStore]> = [
  ['memory', null, () => createMemoryUserStore()],
  ['Redis', noRedis, () => createRedisUserStore({ url: redis!.url })],
  ['PostgreSQL', noPostgres, () => createRecordedUserStore({ database: db!, fast: createMemoryUserStore() })],
];

describe.each(STORES)('the operator role in the %s user store', (_name, missing, open) => {
  const it_ = it.skipIf(missing !== null);
  let users: UserStore;
  const saveUser = async (email: string) => {
    const user = { userId: randomUUID(), email, passwordHash: 'scrypt$test', accountId: `acct-${randomUUID()}`, createdAt: new Date().toISOString() };
    expect(await users.reserveEmail(email, user.userId)).toBe(true);
    await users.saveUser(user);
    return user;
  };
  const grant = (email: string, operator: boolean, at = new Date()) => setOperatorRole(users, { email, operator, actor: 'admin-cli:tester', at });

  beforeAll(() => {
    if (missing === null) opened.push((users = open()));
  });

  it_('is off for a new user; a grant by email turns it on, a revocation off, each with its audit entry newest first', async () => {
    const email = uniqueEmail('role');
    const user = await saveUser(email);
    expect((await users.getUser(user.userId))?.operator ?? false).toBe(false);

    const granted = await grant(email.toUpperCase(), true, new Date('2026-11-28T10:00:00Z'));
    expect(granted).toEqual({ outcome: 'changed', event: { at: '2026-11-28T10:00:00.000Z', userId: user.userId, email, action: 'grant', actor: 'admin-cli:tester' } });
    expect((await users.getUser(user.userId))?.operator).toBe(true);
    expect((await users.findUserByEmail(email))?.operator).toBe(true);
    expect((await users.listOperators()).map((u) => u.email)).toContain(email);

    await grant(email, false, new Date('2026-11-28T11:00:00Z'));
    expect((await users.getUser(user.userId))?.operator ?? false).toBe(false);
    expect((await users.listOperators()).map((u) => u.email)).not.toContain(email);
    const trail = (await users.operatorEvents(100)).filter((e) => e.email === email);
    expect(trail.map((e) => [e.action, e.at])).toEqual([['revoke', '2026-11-28T11:00:00.000Z'], ['grant', '2026-11-28T10:00:00.000Z']]);
  });

  it_('changes nothing and records nothing when the role is already so, and finds nobody for an unknown email', async () => {
    const email = uniqueEmail('noop');
    await saveUser(email);
    const before = (await users.operatorEvents(1000)).length;
    expect((await grant(email, false)).outcome).toBe('unchanged');
    expect((await grant(email, true)).outcome).toBe('changed');
    expect((await grant(email, true)).outcome).toBe('unchanged');
    expect((await users.operatorEvents(1000)).length).toBe(before + 1);
    expect(await grant(uniqueEmail('nobody'), true)).toEqual({ outcome: 'no-user' });
  });

  it_('lists the holders by email, each once', async () => {
    const [b, a] = [uniqueEmail('zz-b'), uniqueEmail('zz-a')];
    await saveUser(b);
    await saveUser(a);
    await grant(b, true);
    await grant(a, true);
    const holders = (await users.listOperators()).map((u) => u.email).filter((e) => e === a || e === b);
    expect(holders).toEqual([a, b].sort());
  });
});

describe('sign-up and the session', () => {
  it('never makes an operator: a sign-up claiming the role is refused, and a new user\'s session says operator false', async () => {
    const metering = await createMetering({ log: () => undefined });
    const running = await startConsole({ metering, users: createMemoryUserStore() });
    try {
      const client = new ConsoleClient(running.base);
      const claimed = await client.signUp(uniqueEmail('claim'), undefined, { operator: true });
      expect(claimed.status).toBe(400);
      expect(claimed.body.errors[0].path).toEqual(['operator']);
      expect((await client.signUp(uniqueEmail('plain'))).body.data.user.operator).toBe(false);
      expect((await client.get('operator/options')).status).toBe(403);
    } finally {
      await running.close();
      await metering.close();
    }
  });
});
