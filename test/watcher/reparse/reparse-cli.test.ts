/**
 * `npm run admin -- reparse` without a queue Redis (the one-process default has no watcher replica
 * to hand the job to): the command runs the job itself on the in-memory job system, calling the core
 * at CORE_ADDRESS, against the watcher's PostgreSQL, and prints the report. Skips, saying so,
 * without PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReparseCommand } from '../../../watcher/src/admin/reparse-command.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { startCore, type StartedCore } from '../../harness/core.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { HOUR, START } from '../refresh/fixtures.js';
import { archivedStory } from './archived-story.js';

const missing = await postgresMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('the reparse command with no queue Redis', () => {
  let database: TestDatabase;
  let store: WatchStore;
  let core: StartedCore;
  beforeAll(async () => {
    database = await createTestDatabase('watcher_reparse_cli');
    store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }));
    core = await startCore();
  }, 60_000);
  afterAll(async () => {
    await core?.stop();
    await store?.close();
    await database?.drop();
  });

  async function command(argv: string[], env: NodeJS.ProcessEnv) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runReparseCommand(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const window = ['--domain', 'US', '--kind', 'product', '--since', new Date(START).toISOString()];

  it('runs the job itself against the core and prints what it corrected', async () => {
    const { asin } = await archivedStory(store, START, [10, 12]);
    const ran = await command(window, { DATABASE_URL: database.url, CORE_ADDRESS: core.address, SERVICE_TOKEN: core.token });
    expect(ran.err).toContain('run here: no queue Redis');
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.out)).toMatchObject({ state: 'done', pages: 2, reparsed: 2, pointsRevised: 2, corrected: { price: 2 } });
    const history = await store.snapshots.history({ domain: 'US', asin, from: new Date(START), to: new Date(START + 2 * HOUR) });
    expect(history.map((p) => [p.quality, p.price?.value])).toEqual([['revised', 10], ['revised', 12]]);
  }, 60_000);

  it('refuses to queue what nothing would run: without the core\'s token it says what it needs, exit 2', async () => {
    const refused = await command(window, { DATABASE_URL: database.url });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('SERVICE_TOKEN');
  });
});
