/**
 * One reparse job per marketplace and kind, enforced by PostgreSQL, on a real PostgreSQL with real
 * concurrent requests: two `npm run admin -- reparse` at once (each its own connection pool, as two
 * operators' shells or two pods would be), two runs of one job at once (two replicas, each its own
 * pool, against a real core), and two writes of one page from the same cursor. The queue is a real
 * redis-server with no watcher reading it, so a queued job stays queued. Skips, saying so, without
 * PostgreSQL or redis-server.
 */
import { randomUUID } from 'node:crypto';
import { PageArchiveService } from '@retail/contract';
import { createCoreClient, type CoreClient } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReparseCommand } from '../../../watcher/src/admin/reparse-command.js';
import { snapshotFieldsOf } from '../../../watcher/src/refresh/snapshot-fields.js';
import { createReparseProcessor, REPARSE_QUEUE } from '../../../watcher/src/reparse/index.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { startCore, type StartedCore } from '../../harness/core.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import { HOUR, START } from '../refresh/fixtures.js';
import { archivedStory } from './archived-story.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('one reparse job per marketplace and kind, on a real PostgreSQL', () => {
  let database: TestDatabase;
  let redis: RedisServer;
  let core: StartedCore;
  let client: CoreClient;
  /** Two replicas' stores: each its own pool on the same database. */
  let stores: WatchStore[];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase('watcher_reparse_one');
    redis = await startRedis();
    stores = [
      await openWatchStore(createPostgresDatabase({ connectionString: database.url })),
      await openWatchStore(createPostgresDatabase({ connectionString: database.url })),
    ];
    core = await startCore();
    client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
    env = { DATABASE_URL: database.url, QUEUE_REDIS_URL: `${redis.url}/4` };
  }, 60_000);
  afterAll(async () => {
    await core?.stop();
    for (const store of stores ?? []) await store.close();
    await database?.drop();
    await redis?.stop();
  });

  async function command(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runReparseCommand(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const queueOver = (domain: string) => command('--domain', domain, '--kind', 'product', '--since', new Date(START).toISOString(), '--no-wait');

  it('of two reparse commands at once over the same marketplace and kind, one is queued and the other refused with exit 3, naming it; another marketplace is not held, and a cancel frees it', async () => {
    const both = await Promise.all([queueOver('US'), queueOver('US')]);
    expect(both.map((r) => r.code).sort()).toEqual([0, 3]);
    const queued = both.find((r) => r.code === 0)!;
    const refused = both.find((r) => r.code === 3)!;
    const id = queued.out.trim();
    expect(await stores[0]!.reparseJobs.get(id)).toMatchObject({ state: 'queued', domain: 'US' });
    expect(refused.err).toContain(`refused: reparse job ${id} over US product is queued`);
    expect(refused.err).toContain(`reparse cancel ${id}`);
    expect(refused.out).toBe('');

    // Refused again while it waits; another marketplace is another job.
    expect((await queueOver('US')).code).toBe(3);
    const germany = await queueOver('DE');
    expect(germany.code).toBe(0);

    const cancelled = await command('cancel', id);
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.out)).toMatchObject({ id, state: 'failed', error: 'cancelled by the operator' });
    expect((await command('cancel', id)).code).toBe(1);
    const next = await queueOver('US');
    expect(next.code).toBe(0);
    for (const job of [next.out.trim(), germany.out.trim()]) expect((await command('cancel', job)).code).toBe(0);
  }, 30_000);

  it('the database refuses all but one of eight creations at once from two pools', async () => {
    const drafts = Array.from({ length: 8 }, (_, i) => ({ id: randomUUID(), domain: 'FR', kind: 'product', since: new Date(START + i), force: false }));
    const created = await Promise.all(drafts.map((draft, i) => stores[i % 2]!.reparseJobs.create(draft)));
    expect(created.filter((c) => c.created)).toHaveLength(1);
    const winner = drafts[created.findIndex((c) => c.created)]!.id;
    for (const refusal of created.filter((c) => !c.created)) expect(refusal).toMatchObject({ created: false, active: { id: winner, state: 'queued' } });
    expect(await stores[0]!.reparseJobs.cancel(winner, 'test over')).toBe(true);
  });

  it('two replicas given the same job at once: one runs it, the other leaves it; every page is read and applied once', async () => {
    const base = START + 300 * HOUR;
    const { asin } = await archivedStory(stores[0]!, base, [40, 41, 42, 43, 44, 45, 46, 47]);
    const jobId = randomUUID();
    await stores[0]!.reparseJobs.create({ id: jobId, domain: 'US', kind: 'product', since: new Date(base), until: new Date(base + 8 * HOUR), force: false });
    let sent = 0;
    // A slower core (50 ms a page more), so the two runs surely overlap.
    const slowCore: Pick<CoreClient, 'unaryCall'> = {
      unaryCall: (async (method: typeof PageArchiveService.method.reparseArchivedPage, request: never, options) => {
        sent += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return client.unaryCall(method, request, options);
      }) as CoreClient['unaryCall'],
    };
    const logs: string[][] = [[], []];
    const run = { id: jobId, data: { jobId }, attempt: 1, maxAttempts: REPARSE_QUEUE.retryDelaysMs.length + 1, dueAt: base };
    await Promise.all(stores.map((store, i) => createReparseProcessor({ store, core: slowCore, log: (line) => logs[i]!.push(line), concurrency: 2 })(run)));

    const left = logs.filter((lines) => lines.some((line) => line.includes('another replica is running this job')));
    expect(left).toHaveLength(1);
    expect(sent).toBe(8);
    const job = await stores[1]!.reparseJobs.get(jobId);
    expect(job).toMatchObject({ state: 'done', counts: { pages: 8, reparsed: 8, pointsRevised: 8 } });
    expect(await stores[1]!.reparseJobs.revisions(jobId)).toHaveLength(8);
    const history = await stores[1]!.snapshots.history({ domain: 'US', asin, from: new Date(base), to: new Date(base + 8 * HOUR) });
    expect(history.map((p) => [p.quality, p.price?.value])).toEqual([40, 41, 42, 43, 44, 45, 46, 47].map((price) => ['revised', price]));
  }, 30_000);

  it('two writes of one page from the same cursor at once (a run that lost its lock): one is applied, the other writes nothing', async () => {
    const base = START + 400 * HOUR;
    await archivedStory(stores[0]!, base, [50]);
    const jobId = randomUUID();
    await stores[0]!.reparseJobs.create({ id: jobId, domain: 'US', kind: 'product', since: new Date(base), until: new Date(base + HOUR), force: false });
    await stores[0]!.reparseJobs.setState(jobId, 'running');
    const [page] = await stores[0]!.pages.listSince({ domain: 'US', kind: 'product', since: new Date(base), until: new Date(base + HOUR), limit: 1 });
    const answer = await client.unaryCall(PageArchiveService.method.reparseArchivedPage, {
      marketplace: 'US', kind: 'product', identifier: page!.identifier, url: page!.url, status: page!.status, encoding: page!.encoding, body: page!.body,
    }, { requestId: 'fence' });
    const outcome = { kind: 'read' as const, parser: answer.parser, fields: snapshotFieldsOf(answer.product!, answer.sales) };
    const applied = await Promise.all(stores.map((store) => store.reparseJobs.applyPage(jobId, undefined, page!, outcome)));
    expect(applied.sort()).toEqual([false, true]);
    expect(await stores[0]!.reparseJobs.get(jobId)).toMatchObject({ counts: { pages: 1, pointsRevised: 1 } });
    expect(await stores[0]!.reparseJobs.revisions(jobId)).toHaveLength(1);
    await stores[0]!.reparseJobs.setState(jobId, 'done');
  });
});
