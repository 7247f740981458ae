/**
 * The operator view's real parts for a test file: one throw-away PostgreSQL database holding the
 * watcher's store (its page archive) and the console's users (as `npm start` shares one database),
 * the watcher's real gRPC server serving retail.v1.ArchivedPageService over that archive, and the
 * console on a real port calling it through the gateways' backend client with the service token.
 * Pages are recorded through the store as the archive's recorder records them.
 */
import { randomUUID } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { ArchivedPage } from '@retail/contract/page-archive-handoff';
import { createClientArchiveApi, createMemoryUserStore, createRecordedUserStore, setOperatorRole, type UserStore } from '@retail/console';
import { createCoreClient } from '@retail/gateway-shared/core-client';
import type { MeteringInstance } from '@retail/metering';
import { createMetering } from '@retail/metering';
import { createMemoryJobSystem, type JobSystem } from '../../watcher/src/queue/index.js';
import { createWatchService, createWatcherGrpcServer, type WatcherGrpcServer } from '../../watcher/src/service/index.js';
import { createPostgresDatabase, openWatchStore, type Database, type WatchStore } from '../../watcher/src/store/index.js';
import { generateSecretKey, secretKey } from '../../watcher/src/webhooks/secret-box.js';
import { createTestDatabase, type TestDatabase } from '../harness/postgres.js';
import { startConsole, type RunningConsole } from './harness.js';

export const SERVICE_TOKEN = 'console-operator-service-token';
export const ASIN = 'B0OPERATE1';
/** The pages recorded: 09:00 (price 10, gzip), 10:00 (unreadable), 11:00 (price 8, brotli). */
export const FETCHES = ['2026-11-28T09:00:00.000Z', '2026-11-28T10:00:00.000Z', '2026-11-28T11:00:00.000Z'] as const;

/** The archived HTML of a fetch: a script, so a test can tell the page is never run in the console. */
export const htmlOf = (price: number | null) =>
  `<!doctype html><html><head><script>window.__archivedPageRan = true</script></head><body><span class="a-price">${price ?? 'n/a'}</span> naïve ✓</body></html>`;

function archivedPage(fetchedAt: string, price: number | null, encoding: 'br' | 'gzip'): ArchivedPage {
  const html = Buffer.from(htmlOf(price));
  return {
    id: randomUUID(), url: `https://www.amazon.com/dp/${ASIN}`, domain: 'US', kind: 'product', identifier: ASIN, status: 200,
    fetchedAt: new Date(fetchedAt), parser: 'product-page@3', contentType: 'text/html; charset=utf-8', encoding,
    body: encoding === 'br' ? brotliCompressSync(html) : gzipSync(html),
    ...(price === null ? {} : { parsed: JSON.stringify({ asin: ASIN, title: '<b>Espresso</b> machine', price: { value: price, currency: 'USD' } }) }),
    reason: price === null ? 'unparseable' : 'watch-refresh',
    missing: price === null ? ['title', 'price'] : [],
  };
}

export interface ArchiveFixture {
  readonly database: Database;
  readonly store: WatchStore;
  readonly users: UserStore;
  readonly metering: MeteringInstance;
  /** The console with the operator view reaching the watcher. */
  readonly console: RunningConsole;
  readonly watcherAddress: string;
  /** Grants or revokes the role as the admin CLI does. */
  setOperator(email: string, operator: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startArchiveFixture(prefix: string): Promise<ArchiveFixture> {
  const test: TestDatabase = await createTestDatabase(prefix);
  const database = createPostgresDatabase({ connectionString: test.url });
  const store = await openWatchStore(database);
  await store.pages.record(archivedPage(FETCHES[0], 10, 'gzip'));
  await store.pages.record(archivedPage(FETCHES[1], null, 'br'));
  await store.pages.record(archivedPage(FETCHES[2], 8, 'br'));
  const jobs: JobSystem = createMemoryJobSystem();
  const service = createWatchService({ store, jobs, webhooks: { policy: { allowPrivateTargets: false }, keyring: { current: secretKey(generateSecretKey()), retired: [] } } });
  const server: WatcherGrpcServer = createWatcherGrpcServer({ host: '127.0.0.1', port: 0, serviceToken: SERVICE_TOKEN, service, archive: store });
  const { port } = await server.start();
  const watcherAddress = `127.0.0.1:${port}`;
  const metering = await createMetering({ log: () => undefined });
  const users = createRecordedUserStore({ database, fast: createMemoryUserStore() });
  const client = createCoreClient({ address: watcherAddress, watcherAddress, serviceToken: SERVICE_TOKEN, deadlineMs: 5_000 });
  const running = await startConsole({ metering, users, archive: createClientArchiveApi({ client }) });
  return {
    database, store, users, metering, console: running, watcherAddress,
    async setOperator(email, operator) {
      const change = await setOperatorRole(users, { email, operator, actor: 'admin-cli:test', at: new Date() });
      if (change.outcome === 'no-user') throw new Error(`no console user ${email}`);
    },
    async close() {
      await running.close();
      await server.stop({ graceMs: 1_000 });
      await jobs.close();
      await users.close();
      await metering.close();
      await store.close();
      await test.drop();
    },
  };
}
