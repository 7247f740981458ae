/**
 * `npm run admin -- console-operators`: the console's operator role granted, listed and revoked
 * from the admin CLI against each place the console keeps its users: the ledger's PostgreSQL
 * (LEDGER_DATABASE_URL, real server), `npm start`'s PGlite data directory (WATCHER_DATA_DIR, with
 * npm start stopped), and with `--redis` the ledger Redis (a real redis-server). The console sees a
 * grant and a revocation at the signed-in user's next request. Skips a part, saying which, when its
 * server is missing.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryUserStore, createRecordedUserStore, openConsoleUsers as openConsolePodUsers, runConsoleOperatorsCommand, type UserStore } from '@retail/console';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { adminActor, openConsoleUsers } from '../../app/src/console-operators.js';
import { ConsoleClient, startConsole, uniqueEmail, type RunningConsole } from '../console/harness.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../harness/postgres.js';
import { redisMissing, startRedis } from '../harness/redis.js';

const noPostgres = await postgresMissing();
const noRedis = redisMissing();
for (const reason of [noPostgres, noRedis]) if (reason) console.warn(`[skip] ${reason}`);

/** Runs the command in this process as app/src/admin.ts does, against `env`. */
async function admin(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runConsoleOperatorsCommand(argv, { out: (line) => out.push(line), err: (line) => err.push(line) }, (where) => openConsoleUsers(where, env), {
    actor: 'admin-cli:tester',
    now: () => new Date('2026-11-28T12:00:00Z'),
  });
  return { code, out, err: err.join('\n') };
}

const saveUser = async (users: UserStore, email: string) => {
  const userId = randomUUID();
  await users.reserveEmail(email, userId);
  await users.saveUser({ userId, email, passwordHash: 'scrypt$test', accountId: `acct-${userId}`, createdAt: new Date().toISOString() });
};

describe.skipIf(noPostgres !== null)('console-operators against the ledger\'s PostgreSQL', () => {
  let test: TestDatabase;
  let db: Database;
  let metering: MeteringInstance;
  let running: RunningConsole;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    test = await createTestDatabase('console_operators_cli');
    db = createPostgresDatabase({ connectionString: test.url });
    metering = await createMetering({ log: () => undefined });
    running = await startConsole({ metering, users: createRecordedUserStore({ database: db, fast: createMemoryUserStore() }) });
    env = { LEDGER_DATABASE_URL: test.url };
  });
  afterAll(async () => {
    await running?.close();
    await metering?.close();
    await db?.close();
    await test?.drop();
  });

  it('grants the role to a signed-in user, who has it at the next request; lists it; revokes it, which holds at once', async () => {
    const email = uniqueEmail('cli-operator');
    const user = new ConsoleClient(running.base);
    expect((await user.signUp(email)).status).toBe(201);
    expect((await user.get('operator/options')).status).toBe(403);

    const granted = await admin(['grant', '--email', email.toUpperCase()], env);
    expect(granted.code).toBe(0);
    expect(JSON.parse(granted.out[0]!)).toMatchObject({ at: '2026-11-28T12:00:00.000Z', email, action: 'grant', actor: 'admin-cli:tester' });
    expect((await user.get('operator/options')).status).toBe(200);
    expect((await admin(['list'], env)).out.map((line) => JSON.parse(line).email)).toEqual([email]);

    // Again: nothing changes, nothing is recorded.
    const again = await admin(['grant', '--email', email, '--by', 'alice'], env);
    expect([again.code, again.err]).toEqual([0, `${email} is already an operator: nothing changed`]);

    const revoked = await admin(['revoke', '--email', email, '--by', 'alice'], env);
    expect(JSON.parse(revoked.out[0]!)).toMatchObject({ action: 'revoke', actor: 'admin-cli:alice' });
    expect((await user.get('operator/options')).status).toBe(403);
    expect((await admin(['list'], env)).out).toEqual([]);
    const history = (await admin(['history', '--limit', '5'], env)).out.map((line) => JSON.parse(line));
    expect(history.map((e) => [e.action, e.email])).toEqual([['revoke', email], ['grant', email]]);
  });

  it('answers exit 1 for an email nobody has, and exit 2 with the usage for a bad command line', async () => {
    const nobody = await admin(['grant', '--email', 'nobody@example.com'], env);
    expect([nobody.code, nobody.err]).toEqual([1, 'no console user with the email "nobody@example.com" (they sign up, or sign in once, first)']);
    for (const argv of [[], ['grant'], ['promote', '--email', 'a@example.com'], ['list', '--limit', '0'], ['grant', '--email']]) {
      const refused = await admin(argv, env);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.err).toContain('usage: npm run --silent admin -- console-operators');
    }
  });

  it('is what `npm run admin` runs', async () => {
    const email = uniqueEmail('spawned');
    await saveUser(createRecordedUserStore({ database: db, fast: createMemoryUserStore() }), email);
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', 'app/src/admin.ts', 'console-operators', 'grant', '--email', email], {
      env: { PATH: process.env.PATH, LEDGER_DATABASE_URL: test.url, USER: 'operator-on-call' },
    });
    expect(JSON.parse(stdout)).toMatchObject({ email, action: 'grant', actor: 'admin-cli:operator-on-call' });
  }, 60_000);

  it('runs alone in a console pod (operators-cli.ts), where only LEDGER_DATABASE_URL or --redis can say where the users are', async () => {
    const email = uniqueEmail('pod');
    await saveUser(createRecordedUserStore({ database: db, fast: createMemoryUserStore() }), email);
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', 'gateways/console/src/admin/operators-cli.ts', 'grant', '--email', email], {
      env: { PATH: process.env.PATH, LEDGER_DATABASE_URL: test.url, USER: 'pod-operator' },
    });
    expect(JSON.parse(stdout)).toMatchObject({ email, action: 'grant', actor: 'admin-cli:pod-operator' });
    const err: string[] = [];
    const code = await runConsoleOperatorsCommand(['list'], { out: () => undefined, err: (line) => err.push(line) }, (where) => openConsolePodUsers(where, {}), { actor: 'admin-cli:tester' });
    expect([code, err]).toEqual([1, ['cannot open the console\'s users: set LEDGER_DATABASE_URL (the database the console keeps its users in), or pass --redis']]);
  }, 60_000);
});

describe('console-operators against npm start\'s PGlite data directory', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'console-operators-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('grants the role in the data directory npm start keeps its users in (npm start stopped: one process at a time)', async () => {
    const env = { WATCHER_DATA_DIR: dataDir };
    const email = uniqueEmail('pglite');
    const first = await openConsoleUsers('database', env);
    await saveUser(first.users, email);
    await first.close();

    expect((await admin(['grant', '--email', email], env)).code).toBe(0);

    const reopened = await openConsoleUsers('database', env);
    try {
      expect((await reopened.users.findUserByEmail(email))?.operator).toBe(true);
      expect((await reopened.users.operatorEvents(5)).map((e) => [e.action, e.email, e.actor])).toEqual([['grant', email, 'admin-cli:tester']]);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});

describe.skipIf(noRedis !== null)('console-operators --redis', () => {
  it('grants the role to a user the ledger Redis keeps, and says what it needs without a Redis URL', async () => {
    const redis = await startRedis();
    try {
      const env = { LEDGER_REDIS_URL: redis.url };
      const opened = await openConsoleUsers('redis', env);
      const email = uniqueEmail('redis');
      await saveUser(opened.users, email);
      expect((await admin(['grant', '--email', email, '--redis'], env)).code).toBe(0);
      expect((await opened.users.findUserByEmail(email))?.operator).toBe(true);
      await opened.close();
      const unset = await admin(['list', '--redis'], {});
      expect([unset.code, unset.err]).toEqual([1, 'cannot open the console\'s users: --redis needs LEDGER_REDIS_URL (or REDIS_URL)']);
    } finally {
      await redis.stop();
    }
  });
});

describe('the audit actor', () => {
  it('is the operating-system user who ran the command', () => {
    expect(adminActor({ USER: 'alice' })).toBe('admin-cli:alice');
  });
});
