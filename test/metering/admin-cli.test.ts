/** The admin CLI against a real redis-server: in-process for every command, one real `npm run` for stdout. */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '../../gateways/metering/src/admin/commands.js';
import { createMetering, parseKey, type MeteringInstance } from '../../gateways/metering/src/index.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('admin CLI', () => {
  let redis: RedisServer;
  let metering: MeteringInstance;
  let env: Record<string, string>;

  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    redis = await startRedis();
    env = { LEDGER_REDIS_URL: redis.url };
    metering = await createMetering({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await metering?.close();
    await redis?.stop();
  });

  it('creates, grants, re-plans, disables, lists, revokes, shows usage and deletes', async () => {
    const created = await cli('account', 'create', '--units', '7', '--plan', 'unlimited');
    expect(created.code).toBe(0);
    const accountId = created.out;
    expect(await metering.admin.summary(accountId)).toMatchObject({ balance: 7, plan: 'unlimited' });
    expect(JSON.parse((await cli('account', 'grant', accountId, '5')).out)).toEqual({ balance: 12 });
    expect((await cli('account', 'plan', accountId, 'free')).code).toBe(0);
    expect((await cli('account', 'plan', accountId, 'platinum')).code).toBe(1);
    const key = (await cli('key', 'create', '--account', accountId, '--label', 'ci', '--interfaces', 'mcp')).out;
    expect(parseKey(key)?.accountId).toBe(accountId);
    const admitted = await metering.meter.admit({ key, interface: 'mcp', operations: ['GetProduct'], shapeValid: true, requestId: 'r' });
    if (admitted.ok) await metering.meter.settle(admitted.hold, 1);
    const usage = JSON.parse((await cli('usage', 'show', accountId)).out);
    expect(usage).toMatchObject({ accountId, balance: 11, plan: 'free', usage: [{ operation: 'GetProduct', calls: 1 }] });
    expect(JSON.parse((await cli('usage', 'recent', accountId, '--limit', '5')).out)).toMatchObject([{ operation: 'GetProduct', interface: 'mcp' }]);
    const keys = JSON.parse((await cli('key', 'list', accountId)).out);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ label: 'ci', scopes: { interfaces: ['mcp'], operations: [] } });
    expect(JSON.stringify(keys)).not.toContain(key);
    expect((await cli('account', 'disable', accountId)).code).toBe(0);
    expect((await metering.meter.authenticate(key, 'mcp')).ok).toBe(false);
    expect((await cli('account', 'enable', accountId)).code).toBe(0);
    expect((await cli('key', 'revoke', accountId, keys[0].keyId)).code).toBe(0);
    expect((await cli('key', 'revoke', accountId, 'key_nope')).code).toBe(1);
    expect((await metering.meter.authenticate(key, 'mcp')).ok).toBe(false);
    const audit = JSON.parse((await cli('account', 'audit', accountId)).out).map((e: { action: string }) => e.action);
    expect(audit).toEqual(expect.arrayContaining(['account.create', 'account.grant', 'account.plan', 'key.create', 'account.disable', 'key.revoke']));
    expect((await cli('account', 'delete', accountId)).code).toBe(0);
    expect((await cli('account', 'show', accountId)).code).toBe(1);
  });

  it('rejects bad usage with exit code 2 and the usage text', async () => {
    const bad = await cli('account', 'grant', 'x', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('usage:');
    expect((await cli('frobnicate')).code).toBe(2);
  });

  it('`npm run --silent admin -- key create --units N` prints only a working key on stdout', async () => {
    const run = spawnSync('npm', ['run', '--silent', 'admin', '--', 'key', 'create', '--units', '3', '--label', 'script'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, LEDGER_REDIS_URL: redis.url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^rk_[a-z0-9]{12}_[0-9A-Za-z]{38}\n$/);
    const key = run.stdout.trim();
    const auth = await metering.meter.authenticate(key, 'rest');
    expect(auth.ok).toBe(true);
    if (auth.ok) expect(await metering.admin.summary(auth.accountId)).toMatchObject({ balance: 3, plan: 'free' });
  });
});
