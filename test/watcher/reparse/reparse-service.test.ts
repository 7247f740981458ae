/**
 * retail.v1.ReparseService on a real watcher gRPC server over a real PostgreSQL, called with a client
 * nobody here wrote (@connectrpc/connect): a job queued on the watcher's job system is refused a
 * second time while active (FAILED_PRECONDITION naming it), reported and cancelled; once the
 * watcher's reparse worker runs (against a real core), a job started through the service corrects
 * the history and reports it; bad input is INVALID_ARGUMENT naming the field, an unknown job
 * NOT_FOUND, a caller without the token UNAUTHENTICATED. The admin CLI pointed at a port where no
 * watcher listens says so in one line, exit 4. Skips, saying so, without PostgreSQL.
 */
import { createServer } from 'node:net';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { ErrorReason, ReparseService } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPagesCommand } from '../../../watcher/src/admin/pages-command.js';
import { runReparseCommand } from '../../../watcher/src/admin/reparse-command.js';
import { createMemoryJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { startReparseWorker } from '../../../watcher/src/reparse/index.js';
import { createWatchService, createWatcherGrpcServer, type WatcherGrpcServer } from '../../../watcher/src/service/index.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { generateSecretKey, secretKey } from '../../../watcher/src/webhooks/secret-box.js';
import { startCore, type StartedCore } from '../../harness/core.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { HOUR, START } from '../refresh/fixtures.js';
import { failureOf } from '../service/fixtures.js';
import { archivedStory } from './archived-story.js';

const missing = await postgresMissing();
if (missing) console.warn(`[skip] ${missing}`);

const since = timestampFromDate(new Date(START));

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(missing !== null)('the watcher serves re-parse jobs to internal callers', () => {
  let database: TestDatabase;
  let store: WatchStore;
  let jobs: JobSystem;
  let core: StartedCore;
  let server: WatcherGrpcServer;
  let port: number;
  let headers: Record<string, string>;
  const client = () => createClient(ReparseService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));

  beforeAll(async () => {
    database = await createTestDatabase('watcher_reparse_service');
    store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }));
    core = await startCore();
    headers = { authorization: `Bearer ${core.token}` };
    // No reparse worker yet: what the service queues stays queued until the last test starts one.
    jobs = createMemoryJobSystem();
    const service = createWatchService({ store, jobs, webhooks: { policy: { allowPrivateTargets: false }, keyring: { current: secretKey(generateSecretKey()), retired: [] } } });
    server = createWatcherGrpcServer({ host: '127.0.0.1', port: 0, serviceToken: core.token, service, reparse: { store, jobs } });
    ({ port } = await server.start());
  }, 60_000);
  afterAll(async () => {
    await server?.stop({ graceMs: 1_000 });
    await jobs?.close();
    await core?.stop();
    await store?.close();
    await database?.drop();
  });

  it('queues a job, refuses a second over the same marketplace and kind naming the first, reports and cancels it', async () => {
    const { job } = await client().startReparseJob({ marketplace: 'us', kind: 'product', since }, { headers });
    expect(job).toMatchObject({ state: 'queued', marketplace: 'US', kind: 'product', force: false, pages: 0 });
    expect(timestampDate(job!.since!).getTime()).toBe(START);

    const second = await failureOf(client().startReparseJob({ marketplace: 'US', kind: 'product', since, force: true }, { headers }));
    expect(second.code).toBe(Code.FailedPrecondition);
    expect(second.message).toContain(`refused: reparse job ${job!.id} over US product is queued`);
    // Another marketplace is not held.
    const other = await client().startReparseJob({ marketplace: 'DE', kind: 'product', since }, { headers });
    expect(other.job!.marketplace).toBe('DE');

    expect((await client().getReparseJob({ id: job!.id }, { headers })).job!.state).toBe('queued');
    const cancelled = await client().cancelReparseJob({ id: job!.id }, { headers });
    expect(cancelled.job).toMatchObject({ state: 'failed', error: 'cancelled by the operator' });
    expect(cancelled.job!.finishedAt).toBeDefined();
    const again = await failureOf(client().cancelReparseJob({ id: job!.id }, { headers }));
    expect(again.code).toBe(Code.FailedPrecondition);
    expect(again.message).toBe(`reparse job ${job!.id} is already failed`);
    await client().cancelReparseJob({ id: other.job!.id }, { headers });
  });

  it('refuses bad input with INVALID_ARGUMENT naming the field, an unknown job with NOT_FOUND, a caller without the token with UNAUTHENTICATED', async () => {
    const starts: Array<[Parameters<ReturnType<typeof client>['startReparseJob']>[0], string]> = [
      [{ marketplace: 'XX', kind: 'product', since }, 'marketplace'],
      [{ marketplace: 'US', kind: 'search', since }, 'kind'],
      [{ marketplace: 'US', kind: 'product' }, 'since'],
      [{ marketplace: 'US', kind: 'product', since, until: since }, 'until'],
    ];
    for (const [request, field] of starts) {
      const failure = await failureOf(client().startReparseJob(request, { headers }));
      expect(failure.code, field).toBe(Code.InvalidArgument);
      expect(failure.detail, field).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: [field] });
    }
    const malformed = await failureOf(client().getReparseJob({ id: 'not-a-job' }, { headers }));
    expect(malformed.code).toBe(Code.InvalidArgument);
    expect(malformed.detail).toMatchObject({ fieldPath: ['id'] });
    for (const call of [client().getReparseJob({ id: '00000000-0000-4000-8000-000000000000' }, { headers }), client().cancelReparseJob({ id: '00000000-0000-4000-8000-000000000000' }, { headers })]) {
      const unknown = await failureOf(call);
      expect(unknown.code).toBe(Code.NotFound);
      expect(unknown.detail).toMatchObject({ reason: ErrorReason.NOT_FOUND, fieldPath: ['id'] });
    }
    const noToken = await failureOf(client().startReparseJob({ marketplace: 'US', kind: 'product', since }));
    expect(noToken.code).toBe(Code.Unauthenticated);
    const wrongToken = await failureOf(client().getReparseJob({ id: '00000000-0000-4000-8000-000000000000' }, { headers: { authorization: 'Bearer wrong' } }));
    expect(wrongToken.code).toBe(Code.Unauthenticated);
  });

  it('runs a job it queued on its own reparse worker against the core: the admin CLI, pointed at it, prints the report of what it corrected', async () => {
    const { asin } = await archivedStory(store, START + 10 * HOUR, [10, 12]);
    const coreClient = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
    const worker = startReparseWorker(jobs, { store, core: coreClient, log: () => undefined });
    try {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runReparseCommand(['--domain', 'US', '--kind', 'product', '--since', new Date(START + 10 * HOUR).toISOString(), '--watcher', `127.0.0.1:${port}`],
        { SERVICE_TOKEN: core.token }, { out: (line) => out.push(line), err: (line) => err.push(line) });
      expect(err.join('\n')).toContain(`queued on the watcher at 127.0.0.1:${port}`);
      expect(code).toBe(0);
      const report = JSON.parse(out.join('\n'));
      expect(report).toMatchObject({ state: 'done', domain: 'US', kind: 'product', pages: 2, reparsed: 2, pointsRevised: 2, corrected: { price: 2 } });
      // The same report as the direct path prints from the database.
      const status: string[] = [];
      expect(await runReparseCommand(['status', report.id], { DATABASE_URL: database.url }, { out: (line) => status.push(line), err: () => undefined })).toBe(0);
      expect(JSON.parse(status.join('\n'))).toEqual(report);
      const history = await store.snapshots.history({ domain: 'US', asin, from: new Date(START + 10 * HOUR), to: new Date(START + 12 * HOUR) });
      expect(history.map((p) => [p.quality, p.price?.value])).toEqual([['revised', 10], ['revised', 12]]);
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('says in one line that no watcher answers at the address, exit 4, and what it needs without SERVICE_TOKEN, exit 2', async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    for (const run of [
      (io: { out: (l: string) => void; err: (l: string) => void }) => runPagesCommand(['--domain', 'US', '--kind', 'product', '--asin', 'B0NOWATCHR'], { WATCHER_ADDRESS: address, SERVICE_TOKEN: 't' }, io),
      (io: { out: (l: string) => void; err: (l: string) => void }) => runReparseCommand(['status', '00000000-0000-4000-8000-000000000000'], { WATCHER_ADDRESS: address, SERVICE_TOKEN: 't' }, io),
    ]) {
      const err: string[] = [];
      expect(await run({ out: () => undefined, err: (line) => err.push(line) })).toBe(4);
      expect(err).toHaveLength(1);
      expect(err[0]).toContain(`the watcher at ${address} does not answer`);
    }
    const err: string[] = [];
    expect(await runReparseCommand(['status', '00000000-0000-4000-8000-000000000000', '--watcher', address], {}, { out: () => undefined, err: (line) => err.push(line) })).toBe(2);
    expect(err[0]).toContain('needs SERVICE_TOKEN');
  });
});
