/**
 * `POST /console/api/reference-key` over real HTTP: the key the API reference page fills in for a
 * signed-in user. Only a signed-in session with its CSRF token gets one; it is REST-only, expires
 * within the hour (never after the session), at most two are live per account, and sign-out revokes
 * them. The browser side (the page filling the field, the key answering) is test/app/browser-pages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metering } from '@retail/metering/api';
import { createTestMetering } from './metering.js';
import { ConsoleClient, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

let metering: Metering;
let server: RunningConsole;
let now = Date.parse('2026-03-01T12:00:00Z');

beforeAll(async () => {
  metering = await createTestMetering();
  server = await startConsole({ metering, clock: () => now, sessionTtlMs: 90 * 60_000 });
});
afterAll(async () => {
  await server?.close();
  await metering?.close();
});

const referenceKeys = async (client: ConsoleClient) =>
  ((await client.get('keys')).body.data.keys as { label: string; revokedAt: string | null; keyId: string }[]).filter((key) => key.label === 'API reference (signed-in browser)');

describe('the API reference key', () => {
  it('is refused without a signed-in session, and without the CSRF token', async () => {
    const anonymous = new ConsoleClient(server.base);
    await anonymous.get('session');
    const refused = await anonymous.post('reference-key');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, errors: [{ code: 401, message: 'Sign in first' }] });

    const user = new ConsoleClient(server.base);
    await user.signUp(uniqueEmail());
    const noToken = await user.request('POST', 'reference-key', undefined, { csrf: null });
    expect(noToken.status).toBe(403);
    expect(await referenceKeys(user)).toEqual([]);
  });

  it('is a REST-only key of the account that ends within the hour, listed under its label', async () => {
    const user = new ConsoleClient(server.base);
    const accountId = (await user.signUp(uniqueEmail())).body.data.user.accountId as string;
    const minted = await user.post('reference-key');
    expect(minted.status).toBe(201);
    expect(minted.headers.get('cache-control')).toBe('no-store');
    expect(minted.headers.get('access-control-allow-origin')).toBeNull();
    expect(minted.body.data.expiresAt).toBe(new Date(now + 3_600_000).toISOString());
    const [info] = (await metering.admin.listKeys(accountId)).filter((key) => key.keyId === minted.body.data.keyId);
    expect(info).toMatchObject({ label: 'API reference (signed-in browser)', scopes: { operations: [], interfaces: ['rest'] }, expiresAt: minted.body.data.expiresAt });
    expect(minted.body.data.key.startsWith(info!.prefix)).toBe(true);
  });

  it('never outlives the session', async () => {
    const user = new ConsoleClient(server.base);
    await user.signUp(uniqueEmail());
    now += 60 * 60_000; // 30 minutes of the 90-minute session left
    const minted = await user.post('reference-key');
    expect(Date.parse(minted.body.data.expiresAt)).toBe(now + 30 * 60_000);
  });

  it('keeps two live per account, the newest, and sign-out revokes them', async () => {
    const user = new ConsoleClient(server.base);
    const email = uniqueEmail();
    await user.signUp(email);
    const minted: string[] = [];
    for (let i = 0; i < 4; i++) {
      now += 1000;
      minted.push((await user.post('reference-key')).body.data.keyId);
    }
    const keys = await referenceKeys(user);
    expect(keys).toHaveLength(4);
    expect(keys.filter((key) => key.revokedAt === null).map((key) => key.keyId).sort()).toEqual(minted.slice(2).sort());

    expect((await user.post('signout')).status).toBe(200);
    const again = new ConsoleClient(server.base);
    expect((await again.signIn(email)).status).toBe(200);
    const afterSignOut = await referenceKeys(again);
    expect(afterSignOut).toHaveLength(4);
    expect(afterSignOut.filter((key) => key.revokedAt === null)).toEqual([]);
  });
});
