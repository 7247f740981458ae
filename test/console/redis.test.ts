/**
 * The console on real Redis (a redis-server on a free port from the test harness): two console
 * replicas share users, sessions, invites and sign-in limits through the ledger Redis, beside the
 * metering library's own keys.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metering } from '@retail/metering/api';
import { createRedisUserStore, type UserStore } from '@retail/console';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { createTestMetering } from './metering.js';
import { ConsoleClient, GOOD_PASSWORD, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

const missing = redisMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)('console on Redis (two replicas)', () => {
  let redis: RedisServer;
  let inspect: Redis;
  let metering: Metering;
  const stores: UserStore[] = [];
  let a: RunningConsole;
  let b: RunningConsole;
  let now = Date.parse('2026-05-01T08:00:00Z');

  beforeAll(async () => {
    redis = await startRedis();
    inspect = new Redis(redis.url);
    inspect.on('error', () => {});
    metering = await createTestMetering({ redisUrl: redis.url });
    const replica = async () => {
      const users = createRedisUserStore({ url: redis.url });
      stores.push(users);
      return startConsole({ metering, users, signupMode: 'invite', invites: ['TEAM-2026'], clock: () => now });
    };
    a = await replica();
    b = await replica();
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all(stores.map((store) => store.close()));
    await metering?.close();
    inspect?.disconnect();
    await redis?.stop();
  });

  it('signs up on one replica and works on the other: session, keys, account', async () => {
    const email = uniqueEmail('replica');
    const onA = new ConsoleClient(a.base);
    expect((await onA.signUp(email, GOOD_PASSWORD, { inviteCode: 'TEAM-2026' })).status).toBe(201);

    // The same cookie and CSRF token, presented to the other replica.
    const onB = new ConsoleClient(b.base);
    onB.cookie = onA.cookie;
    onB.csrf = onA.csrf;
    expect((await onB.get('session')).body.data.user.email).toBe(email);
    const created = await onB.post('keys', { label: 'from B' });
    expect(created.status).toBe(201);
    const listed = (await onA.get('keys')).body.data.keys;
    expect(listed).toEqual([expect.objectContaining({ keyId: created.body.data.info.keyId, label: 'from B' })]);
    expect(JSON.stringify(listed)).not.toContain(created.body.data.key);
    expect((await onA.get('account')).body.data.balance).toBe(100);

    // Sign in again on B with the password (separate session).
    expect((await new ConsoleClient(b.base).signIn(email)).status).toBe(200);

    // Revoke on A: the library refuses the key.
    expect((await onA.delete(`keys/${created.body.data.info.keyId}`)).status).toBe(200);
    const refused = await metering.meter.authenticate(created.body.data.key, 'rest');
    expect(refused.ok ? 0 : refused.denial.httpStatus).toBe(401);

    // Sign-out on B ends the session on A too.
    expect((await onB.post('signout')).status).toBe(200);
    expect((await onA.get('keys')).status).toBe(401);
  });

  it('uses each invite once across replicas and each email once', async () => {
    const email = uniqueEmail('dup');
    const first = await new ConsoleClient(a.base).signUp(email, GOOD_PASSWORD, { inviteCode: 'TEAM-2026' });
    // TEAM-2026 was used by the previous test: one use in total, whichever replica.
    expect(first.status).toBe(403);
    await stores[0]!.addInvite((await import('node:crypto')).createHash('sha256').update('SECOND').digest('base64url'));
    expect((await new ConsoleClient(b.base).signUp(email, GOOD_PASSWORD, { inviteCode: 'SECOND' })).status).toBe(201);
    expect((await new ConsoleClient(a.base).signUp(email, GOOD_PASSWORD, { inviteCode: 'SECOND' })).status).toBe(409);
  });

  it('counts failed sign-ins across replicas', async () => {
    const email = uniqueEmail('limited');
    await stores[0]!.addInvite((await import('node:crypto')).createHash('sha256').update('THIRD').digest('base64url'));
    expect((await new ConsoleClient(a.base).signUp(email, GOOD_PASSWORD, { inviteCode: 'THIRD' })).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      now += 1000;
      const replica = i % 2 === 0 ? a : b;
      expect((await new ConsoleClient(replica.base).signIn(email, 'not the password')).status).toBe(401);
    }
    const limited = await new ConsoleClient(b.base).signIn(email);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    now += 15 * 60_000;
    expect((await new ConsoleClient(a.base).signIn(email)).status).toBe(200);
  });

  it('keeps its keys under console:, stores only scrypt hashes of passwords, and gives sessions a TTL', async () => {
    const keys = await inspect.keys('console:*');
    expect(keys.length).toBeGreaterThan(0);
    const all = await inspect.keys('*');
    expect(all.filter((name) => !name.startsWith('console:') && !name.startsWith('ledger:'))).toEqual([]);
    for (const name of keys.filter((k) => k.startsWith('console:user:') || k.startsWith('console:session:'))) {
      const value = (await inspect.get(name)) ?? '';
      expect(value).not.toContain(GOOD_PASSWORD);
      if (name.startsWith('console:user:')) expect(JSON.parse(value).passwordHash).toMatch(/^scrypt\$/);
    }
    for (const name of keys.filter((k) => k.startsWith('console:session:'))) {
      expect(await inspect.pttl(name)).toBeGreaterThan(0);
    }
  });

  it('writes nothing to Redis for anonymous visitors', async () => {
    const before = (await inspect.keys('console:*')).sort();
    for (let i = 0; i < 10; i++) {
      const visitor = new ConsoleClient(i % 2 ? a.base : b.base);
      expect((await visitor.get('session')).body.data.user).toBeNull();
      expect((await visitor.get('session')).body.data.user).toBeNull();
    }
    expect((await inspect.keys('console:*')).sort()).toEqual(before);
  });

  it('answers 503 (not 500) while Redis is down', async () => {
    await stores[0]!.addInvite((await import('node:crypto')).createHash('sha256').update('FOURTH').digest('base64url'));
    const client = new ConsoleClient(a.base);
    expect((await client.signUp(uniqueEmail('outage'), GOOD_PASSWORD, { inviteCode: 'FOURTH' })).status).toBe(201);
    await redis.stop();
    const response = await client.get('keys');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.body.errors[0].code).toBe(503);
  });
});
