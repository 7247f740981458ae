/**
 * The console's JSON API over real HTTP with the metering library's memory store: sign-up modes,
 * input rules, sign-in, rate limits, CSRF, cookies, keys (shown once, revoked) and the account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metering } from '@retail/metering/api';
import { createMemoryUserStore } from '@retail/console';
import { createTestMetering } from './metering.js';
import { ConsoleClient, GOOD_PASSWORD, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

let metering: Metering;
const running: RunningConsole[] = [];

beforeAll(async () => {
  metering = await createTestMetering();
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.close()));
  await metering.close();
});

async function start(options: Parameters<typeof startConsole>[0] extends infer O ? Omit<O & object, 'metering'> : never = {}) {
  const server = await startConsole({ metering, ...options });
  running.push(server);
  return server;
}

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Strict, scoped to /console/api, not Secure on plain HTTP by default', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    const response = await client.get('session');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ user: null, signupMode: 'open' });
    expect(response.body.data.csrfToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const cookie = client.setCookies[0]!;
    expect(cookie).toMatch(/^console_session=[^;]+\.[^;]+;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('; Path=/console/api;');
    expect(cookie).not.toContain('Secure');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is Secure when secureCookies is configured', async () => {
    const server = await start({ secureCookies: true });
    const client = new ConsoleClient(server.base);
    await client.signUp(uniqueEmail());
    expect(client.setCookies.length).toBeGreaterThan(0);
    for (const cookie of client.setCookies) expect(cookie).toMatch(/; Secure/);
  });

  it('is refused when its signature is altered, and replaced on sign-in (no fixation)', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    await client.get('session');
    const anonymous = client.cookie!;
    await client.signUp(uniqueEmail());
    expect(client.cookie).not.toBe(anonymous);
    expect((await client.get('keys')).status).toBe(200);

    const forged = new ConsoleClient(server.base);
    const [name, value] = client.cookie!.split('=') as [string, string];
    forged.cookie = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await forged.get('keys')).status).toBe(401);

    const replay = new ConsoleClient(server.base);
    replay.cookie = anonymous;
    expect((await replay.get('session')).body.data.user).toBeNull();
  });

  it('keeps anonymous sessions stateless: same token on every visit, a new one after expiry', async () => {
    let now = Date.parse('2026-02-01T00:00:00Z');
    const server = await start({ clock: () => now });
    const client = new ConsoleClient(server.base);
    const first = (await client.get('session')).body.data.csrfToken;
    expect(client.setCookies).toHaveLength(1);
    expect((await client.get('session')).body.data.csrfToken).toBe(first);
    expect(client.setCookies).toHaveLength(0); // still valid: no new cookie
    now += 3_600_001;
    const renewed = (await client.get('session')).body.data.csrfToken;
    expect(renewed).not.toBe(first);
    expect(client.setCookies).toHaveLength(1);
    // The old anonymous token is no longer accepted.
    expect((await client.request('POST', 'signin', { email: uniqueEmail(), password: GOOD_PASSWORD }, { csrf: first })).status).toBe(403);
  });

  it('ends at sign-out and at expiry', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const server = await start({ clock: () => now, sessionTtlMs: 60_000 });
    const client = new ConsoleClient(server.base);
    await client.signUp(uniqueEmail());
    const signedIn = client.cookie;
    expect((await client.get('keys')).status).toBe(200);
    now += 61_000;
    expect((await client.get('keys')).status).toBe(401);

    const other = new ConsoleClient(server.base);
    const email = uniqueEmail();
    await other.signUp(email);
    const cookie = other.cookie;
    expect((await other.post('signout')).status).toBe(200);
    expect(other.setCookies[0]).toMatch(/Max-Age=0/);
    const stale = new ConsoleClient(server.base);
    stale.cookie = cookie;
    expect((await stale.get('keys')).status).toBe(401);
    expect(signedIn).not.toBe(cookie);
  });
});

describe('sign-up', () => {
  it('creates a user with a normalised email, a metering account with 100 units, and signs in', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    const email = uniqueEmail('Mixed');
    const response = await client.signUp(`  ${email.toUpperCase()} `);
    expect(response.status).toBe(201);
    expect(response.body.data.user.email).toBe(email.toLowerCase());
    const account = await client.get('account');
    expect(account.status).toBe(200);
    expect(account.body.data).toMatchObject({ balance: 100, accountId: response.body.data.user.accountId });
    expect(typeof account.body.data.plan).toBe('string');
    expect(await metering.admin.summary(response.body.data.user.accountId)).toMatchObject({ balance: 100 });
  });

  it('refuses a duplicate email whatever its case, with 409', async () => {
    const server = await start();
    const email = uniqueEmail();
    expect((await new ConsoleClient(server.base).signUp(email)).status).toBe(201);
    const again = await new ConsoleClient(server.base).signUp(email.toUpperCase());
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, errors: [{ code: 409, message: expect.any(String), path: ['email'] }] });
  });

  it.each([
    ['a bad email', { email: 'not-an-email', password: GOOD_PASSWORD }, ['email']],
    ['a missing email', { password: GOOD_PASSWORD }, ['email']],
    ['a short password', { email: 'short@example.com', password: 'abc123' }, ['password']],
    ['a one-character password', { email: 'same@example.com', password: 'aaaaaaaaaaaa' }, ['password']],
    ['a password holding the email', { email: 'rosalind@example.com', password: 'rosalind-2026!' }, ['password']],
    ['a non-string password', { email: 'n@example.com', password: 1234567890123 }, ['password']],
    ['an unknown field', { email: 'u@example.com', password: GOOD_PASSWORD, admin: true }, ['admin']],
  ])('answers 400 with the field path for %s', async (_name, body, path) => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    await client.get('session');
    const response = await client.post('signup', body);
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.errors[0]).toMatchObject({ code: 400, path });
  });

  it('answers 400 (never 5xx) for malformed JSON, a non-object body or the wrong content type', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    await client.get('session');
    for (const [rawBody, contentType] of [
      ['{"email":', 'application/json'],
      ['[1,2]', 'application/json'],
      ['email=a@b.co&password=xxxxxxxxxxxx', 'application/x-www-form-urlencoded'],
      ['x'.repeat(20_000), 'application/json'],
    ] as const) {
      const response = await client.request('POST', 'signup', undefined, { rawBody, contentType });
      expect(response.status, rawBody.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.body.success).toBe(false);
    }
  });

  it('is refused with 403 when closed', async () => {
    const server = await start({ signupMode: 'closed' });
    const client = new ConsoleClient(server.base);
    expect((await client.get('session')).body.data.signupMode).toBe('closed');
    const response = await client.signUp(uniqueEmail());
    expect(response.status).toBe(403);
    expect(response.body.errors[0].message).toMatch(/closed/i);
  });

  it('needs a valid, unused invite code in invite mode', async () => {
    const users = createMemoryUserStore();
    const server = await start({ signupMode: 'invite', invites: ['WELCOME-1'], users });
    const attempt = (inviteCode?: string) => new ConsoleClient(server.base).signUp(uniqueEmail(), GOOD_PASSWORD, inviteCode ? { inviteCode } : {});

    const missing = await attempt();
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toEqual(['inviteCode']);
    expect((await attempt('NOPE')).status).toBe(403);
    expect((await attempt('WELCOME-1')).status).toBe(201);
    const reused = await attempt('WELCOME-1');
    expect(reused.status).toBe(403);
    expect(reused.body.errors[0].message).toMatch(/already been used/);

    // Codes an operator adds to the store work the same way.
    const { createHash } = await import('node:crypto');
    await users.addInvite(createHash('sha256').update('FROM-STORE').digest('base64url'));
    expect((await attempt('FROM-STORE')).status).toBe(201);
    expect((await attempt('FROM-STORE')).status).toBe(403);
  });

  it('undoes a half-made sign-up: the email stays free and no account is left behind', async () => {
    const base = createMemoryUserStore();
    let failSave = true;
    const users = {
      ...base,
      async saveUser(user: Parameters<typeof base.saveUser>[0]) {
        if (failSave) throw new Error('store write failed');
        return base.saveUser(user);
      },
    };
    const created: string[] = [];
    const admin = metering.admin;
    const watched: Metering = {
      ...metering,
      admin: { ...admin, createAccount: async (o) => { const r = await admin.createAccount(o); created.push(r.accountId); return r; } },
    };
    const server = await startConsole({ metering: watched, users });
    running.push(server);
    const email = uniqueEmail();
    const failed = await new ConsoleClient(server.base).signUp(email);
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ success: false, errors: [{ code: 500, message: 'Internal error' }] });
    expect(created).toHaveLength(1);
    await expect(admin.summary(created[0]!)).rejects.toThrow();
    failSave = false;
    expect((await new ConsoleClient(server.base).signUp(email)).status).toBe(201);
  });

  it('keeps the email free when the invite turns out to be used', async () => {
    const server = await start({ signupMode: 'invite', invites: ['ONCE'] });
    expect((await new ConsoleClient(server.base).signUp(uniqueEmail(), GOOD_PASSWORD, { inviteCode: 'ONCE' })).status).toBe(201);
    const email = uniqueEmail();
    expect((await new ConsoleClient(server.base).signUp(email, GOOD_PASSWORD, { inviteCode: 'ONCE' })).status).toBe(403);
    // Not 409: the failed attempt did not keep the address.
    expect((await new ConsoleClient(server.base).signUp(email, GOOD_PASSWORD, { inviteCode: 'ONCE' })).status).toBe(403);
  });
});

describe('sign-in', () => {
  it('signs in with the right password and gives one message for a wrong password and an unknown email', async () => {
    const server = await start();
    const email = uniqueEmail();
    await new ConsoleClient(server.base).signUp(email);

    const right = new ConsoleClient(server.base);
    const ok = await right.signIn(email.toUpperCase());
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.email).toBe(email);
    expect((await right.get('keys')).status).toBe(200);

    const wrong = await new ConsoleClient(server.base).signIn(email, 'wrong password 123');
    const unknown = await new ConsoleClient(server.base).signIn(uniqueEmail('nobody'), 'wrong password 123');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('limits failed attempts per email: 429 with Retry-After, even for the right password, until the window passes', async () => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    const server = await start({ clock: () => now });
    const email = uniqueEmail();
    await new ConsoleClient(server.base).signUp(email);
    for (let i = 0; i < 5; i++) {
      now += 1000;
      expect((await new ConsoleClient(server.base).signIn(email, `wrong password ${i}`)).status).toBe(401);
    }
    const limited = await new ConsoleClient(server.base).signIn(email);
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].code).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    now += retryAfter * 1000;
    expect((await new ConsoleClient(server.base).signIn(email)).status).toBe(200);
  });

  it('limits failed attempts per client IP across emails', async () => {
    const server = await start({ limits: { signInPerIp: { max: 3, windowMs: 60_000 } } });
    for (let i = 0; i < 3; i++) expect((await new ConsoleClient(server.base).signIn(uniqueEmail('probe'), 'wrong password x')).status).toBe(401);
    const limited = await new ConsoleClient(server.base).signIn(uniqueEmail('probe'), 'wrong password x');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('limits account creation per client IP', async () => {
    const server = await start({ limits: { signUpPerIp: { max: 2, windowMs: 3_600_000 } } });
    expect((await new ConsoleClient(server.base).signUp(uniqueEmail())).status).toBe(201);
    expect((await new ConsoleClient(server.base).signUp(uniqueEmail())).status).toBe(201);
    expect((await new ConsoleClient(server.base).signUp(uniqueEmail())).status).toBe(429);
  });
});

describe('CSRF', () => {
  it('refuses every state-changing request without the session token, with 403', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    await client.signUp(uniqueEmail());
    const other = new ConsoleClient(server.base);
    await other.get('session');

    for (const csrf of [null, 'wrong-token', other.csrf!]) {
      const create = await client.request('POST', 'keys', { label: 'x' }, { csrf });
      expect(create.status).toBe(403);
      expect(create.body.errors[0].message).toMatch(/CSRF/);
      expect((await client.request('POST', 'signout', undefined, { csrf })).status).toBe(403);
    }
    expect((await client.get('keys')).body.data.keys).toEqual([]);

    const created = await client.post('keys', { label: 'real' });
    expect(created.status).toBe(201);
    expect((await client.request('DELETE', `keys/${created.body.data.info.keyId}`, undefined, { csrf: null })).status).toBe(403);
    expect((await client.get('keys')).body.data.keys[0].revokedAt).toBeNull();
  });

  it('protects sign-in and sign-up too (no session, no token → 403)', async () => {
    const server = await start();
    const bare = new ConsoleClient(server.base);
    expect((await bare.post('signup', { email: uniqueEmail(), password: GOOD_PASSWORD })).status).toBe(403);
    expect((await bare.post('signin', { email: uniqueEmail(), password: GOOD_PASSWORD })).status).toBe(403);
  });
});

describe('API keys', () => {
  it('shows a new key once; listings carry only its prefix; the library accepts it until it is revoked', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    await client.signUp(uniqueEmail());

    const created = await client.post('keys', { label: '  build server ' });
    expect(created.status).toBe(201);
    const { key, info } = created.body.data;
    expect(typeof key).toBe('string');
    expect(info).toMatchObject({ label: 'build server', revokedAt: null, lastUsedAt: null });
    expect(key.startsWith(info.prefix)).toBe(true);
    expect(info.prefix.length).toBeLessThan(key.length / 2);

    const unlabelled = await client.post('keys');
    expect(unlabelled.status).toBe(201);
    expect(unlabelled.body.data.info.label).toBeNull();

    for (let i = 0; i < 2; i++) {
      const listing = await client.get('keys');
      expect(listing.status).toBe(200);
      const text = JSON.stringify(listing.body);
      expect(text).not.toContain(key);
      expect(text).not.toContain(unlabelled.body.data.key);
      expect(listing.body.data.keys.map((k: { keyId: string }) => k.keyId).sort()).toEqual([info.keyId, unlabelled.body.data.info.keyId].sort());
      expect(listing.body.data.keys.find((k: { keyId: string }) => k.keyId === info.keyId)).toMatchObject({ prefix: info.prefix, label: 'build server', createdAt: info.createdAt });
    }
    expect((await client.get('session')).body.data).not.toHaveProperty('key');

    expect(await metering.meter.authenticate(key, 'rest')).toMatchObject({ ok: true, keyId: info.keyId });
    const revoked = await client.delete(`keys/${info.keyId}`);
    expect(revoked.status).toBe(200);
    const listing = await client.get('keys');
    expect(listing.body.data.keys.find((k: { keyId: string }) => k.keyId === info.keyId).revokedAt).toEqual(expect.any(String));
    const refused = await metering.meter.authenticate(key, 'rest');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.denial.httpStatus).toBe(401);
    expect(await metering.meter.authenticate(unlabelled.body.data.key, 'rest')).toMatchObject({ ok: true });
  });

  it('refuses a bad label (400 with path), a bad key id (400) and another account’s key (404)', async () => {
    const server = await start();
    const alice = new ConsoleClient(server.base);
    const bob = new ConsoleClient(server.base);
    await alice.signUp(uniqueEmail('alice'));
    await bob.signUp(uniqueEmail('bob'));

    for (const label of ['x'.repeat(65), 42, 'tab\tinside']) {
      const response = await alice.post('keys', { label });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toEqual(['label']);
    }
    expect((await alice.delete('keys/' + encodeURIComponent('../../etc'))).status).toBe(400);
    const bobs = await bob.post('keys', { label: 'bob' });
    const attempt = await alice.delete(`keys/${bobs.body.data.info.keyId}`);
    expect(attempt.status).toBe(404);
    expect(await metering.meter.authenticate(bobs.body.data.key, 'rest')).toMatchObject({ ok: true });
    expect((await bob.delete(`keys/${bobs.body.data.info.keyId}`)).status).toBe(200);
    const revokedAt = (await bob.get('keys')).body.data.keys[0].revokedAt;
    expect(revokedAt).toEqual(expect.any(String));
    // Revoking again is idempotent: same answer, same revocation time.
    expect((await bob.delete(`keys/${bobs.body.data.info.keyId}`)).status).toBe(200);
    expect((await bob.get('keys')).body.data.keys[0].revokedAt).toBe(revokedAt);
    expect((await bob.delete('keys/key_000000000000')).status).toBe(404);
  });

  it('refuses a key beyond the account’s maximum with 409 until one is revoked', async () => {
    const limited = await createTestMetering({ maxActiveKeys: 2 });
    const server = await startConsole({ metering: limited });
    running.push(server);
    const client = new ConsoleClient(server.base);
    await client.signUp(uniqueEmail());
    const first = await client.post('keys', { label: 'one' });
    expect((await client.post('keys', { label: 'two' })).status).toBe(201);
    const third = await client.post('keys', { label: 'three' });
    expect(third.status).toBe(409);
    expect(third.body.errors[0].message).toMatch(/revoke one/);
    expect((await client.delete(`keys/${first.body.data.info.keyId}`)).status).toBe(200);
    expect((await client.post('keys', { label: 'three' })).status).toBe(201);
    await limited.close();
  });

  it('needs a signed-in session (401)', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    await client.get('session');
    expect((await client.get('keys')).status).toBe(401);
    expect((await client.post('keys', {})).status).toBe(401);
    expect((await client.get('account')).status).toBe(401);
  });
});

describe('account', () => {
  it('shows the balance and the usage of metered calls made with the account’s key', async () => {
    const server = await start();
    const client = new ConsoleClient(server.base);
    await client.signUp(uniqueEmail());
    const { key } = (await client.post('keys', { label: 'usage' })).body.data;

    const admitted = await metering.meter.admit({ key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: 'req-1' });
    expect(admitted.ok).toBe(true);
    if (admitted.ok) await metering.meter.settle(admitted.hold, 1);

    const account = (await client.get('account')).body.data;
    expect(account.balance).toBe(99);
    expect(account.usage).toEqual([
      { date: expect.any(String), operation: 'GetProduct', interface: 'rest', calls: 1, call: 'GET /api/retail/product', via: 'REST' },
    ]);
    const listed = (await client.get('keys')).body.data.keys[0];
    expect(listed.lastUsedAt).toEqual(expect.any(String));
  });
});
