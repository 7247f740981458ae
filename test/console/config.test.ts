/** Environment parsing of the console deployment and the env-wired console. */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { ConsoleConfigError, createConsoleFromEnv, loadConsoleConfig, type WatchApi } from '@retail/console';
import { createTestMetering } from './metering.js';

describe('loadConsoleConfig', () => {
  it('defaults to closed sign-up, insecure cookies off TLS, memory store and a generated secret', () => {
    const config = loadConsoleConfig({});
    expect(config).toMatchObject({ signupMode: 'closed', secureCookies: false, port: 8080, invites: [], sessionSecretGenerated: true });
    expect(config.redisUrl).toBeUndefined();
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConsoleConfig({}).sessionSecret).not.toBe(config.sessionSecret);
  });

  it('reads every variable, LEDGER_REDIS_URL before REDIS_URL', () => {
    const config = loadConsoleConfig({
      PORT: '9001',
      CONSOLE_SIGNUP_MODE: 'Invite',
      CONSOLE_SESSION_SECRET: 's'.repeat(40),
      CONSOLE_SECURE_COOKIES: 'true',
      CONSOLE_INVITE_CODES: ' A1 ,,B2 ',
      LEDGER_REDIS_URL: 'redis://ledger:6379',
      REDIS_URL: 'redis://other:6379',
    });
    expect(config).toMatchObject({
      port: 9001,
      signupMode: 'invite',
      sessionSecret: 's'.repeat(40),
      sessionSecretGenerated: false,
      secureCookies: true,
      invites: ['A1', 'B2'],
      redisUrl: 'redis://ledger:6379',
    });
    expect(loadConsoleConfig({ REDIS_URL: 'redis://other:6379' }).redisUrl).toBe('redis://other:6379');
  });

  it('refuses an unknown mode, a short secret and a bad port', () => {
    expect(() => loadConsoleConfig({ CONSOLE_SIGNUP_MODE: 'public' })).toThrow(/CONSOLE_SIGNUP_MODE/);
    expect(() => loadConsoleConfig({ CONSOLE_SESSION_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() => loadConsoleConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('turns watches on with WATCHER_ADDRESS, which needs SERVICE_TOKEN', () => {
    expect(loadConsoleConfig({}).watcher).toBeUndefined();
    expect(loadConsoleConfig({ WATCHER_ADDRESS: 'watcher:50052', SERVICE_TOKEN: 'token' }).watcher).toEqual({ address: 'watcher:50052', serviceToken: 'token' });
    expect(() => loadConsoleConfig({ WATCHER_ADDRESS: 'watcher:50052' })).toThrow(/SERVICE_TOKEN is required when WATCHER_ADDRESS is set/);
    expect(() => loadConsoleConfig({ WATCHER_ADDRESS: 'watcher', SERVICE_TOKEN: 'token' })).toThrow(/WATCHER_ADDRESS must be host:port/);
  });

  it('lists every bad variable on its own line and never echoes the secret', () => {
    const error = (() => {
      try {
        loadConsoleConfig({ PORT: '70000', CONSOLE_SIGNUP_MODE: 'public', CONSOLE_SESSION_SECRET: 'short-secret' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConsoleConfigError);
    expect((error as ConsoleConfigError).problems).toEqual([
      'PORT must be a port number',
      'CONSOLE_SIGNUP_MODE must be one of open, invite, closed',
      'CONSOLE_SESSION_SECRET must be at least 32 characters',
    ]);
    expect((error as Error).message).not.toContain('short-secret');
  });
});

describe('createConsoleFromEnv', () => {
  it('uses the caller’s default mode only when CONSOLE_SIGNUP_MODE is unset, and warns about a missing secret', async () => {
    const metering = await createTestMetering();
    const warnings: string[] = [];
    const log = (level: string, message: string) => warnings.push(`${level}: ${message}`);
    const dev = createConsoleFromEnv({ metering, env: {}, defaultSignupMode: 'open', log });
    expect(dev.config.signupMode).toBe('open');
    expect(warnings).toEqual([expect.stringMatching(/^warn: CONSOLE_SESSION_SECRET is not set/)]);
    expect(await dev.ready()).toBe(true);
    const configured = createConsoleFromEnv({ metering, env: { CONSOLE_SIGNUP_MODE: 'closed', CONSOLE_SESSION_SECRET: 'x'.repeat(32) }, defaultSignupMode: 'open', log });
    expect(configured.config.signupMode).toBe('closed');
    expect(warnings).toHaveLength(1);
    await Promise.all([dev.close(), configured.close(), metering.close()]);
  });

  it('offers the Watches page and the operators\' page archive when WATCHER_ADDRESS is set, and not otherwise', async () => {
    const metering = await createTestMetering();
    const env = { CONSOLE_SESSION_SECRET: 'x'.repeat(32) };
    for (const [extra, offered] of [[{}, false], [{ WATCHER_ADDRESS: '127.0.0.1:9', SERVICE_TOKEN: 'token' }, true]] as const) {
      const deployment = createConsoleFromEnv({ metering, env: { ...env, ...extra } });
      const app = express().use('/console', deployment.router);
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const session = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/console/api/session`);
      const { data } = (await session.json()) as any;
      expect([data.watches, data.archive]).toEqual([offered, offered]);
      await new Promise((resolve) => server.close(resolve));
      await deployment.close();
    }
    // A caller's own WatchApi wins: WATCHER_ADDRESS is then not the console's to read (nor to refuse).
    const composed = createConsoleFromEnv({ metering, env: { ...env, WATCHER_ADDRESS: 'watcher:50052' }, watches: {} as WatchApi });
    expect(composed.config.watcher).toBeUndefined();
    await composed.close();
    await metering.close();
  });
});
