/**
 * One running WatchService for a test file: a PGlite store (or a throw-away PostgreSQL database), the in-memory job system with recording
 * workers on both queues, a real gRPC server on a free port, and a client nobody here wrote
 * (@connectrpc/connect over its gRPC transport) that sends the service token and an account.
 */
import { randomUUID } from 'node:crypto';
import { type Client, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { type ErrorDetail, ErrorDetailSchema, WatchService } from '@retail/contract';
import type { CoreClient } from '@retail/gateway-shared';
import { createMemoryJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { DELIVERY_QUEUE, REFRESH_QUEUE } from '../../../watcher/src/refresh/index.js';
import { createWatchService, createWatcherGrpcServer, type PlanOf, type WatcherGrpcServer } from '../../../watcher/src/service/index.js';
import { createPgliteDatabase, createPostgresDatabase, type Database, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { createTestDatabase, postgresMissing } from '../../harness/postgres.js';
import { generateSecretKey, secretKey, type SecretKeyring } from '../../../watcher/src/webhooks/secret-box.js';

export const SERVICE_TOKEN = 'watcher-test-token';
export const START = Date.parse('2026-03-01T12:00:00Z');

/** A product no other test uses. */
export const newAsin = () => `B0${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}`;
export const newAccount = () => `acct-${randomUUID()}`;

export interface TestService {
  readonly store: WatchStore;
  readonly jobs: JobSystem;
  readonly keyring: SecretKeyring;
  readonly client: Client<typeof WatchService>;
  /** Job ids the refresh and delivery workers have run, in order. */
  readonly refreshRuns: string[];
  readonly deliveryRuns: string[];
  /** Moves the service's clock (history windows); the store's clock ticks one second per read. */
  readonly clock: { set(ms: number): void };
  readonly port: number;
  readonly server: WatcherGrpcServer;
  close(): Promise<void>;
}

/** Call options of a call made for `account` (the gateway's metadata). */
export function as(account: string, token = SERVICE_TOKEN): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${token}`, 'x-retail-account': account } };
}

/** PostgreSQL when asked for and the server answers (PGlite otherwise, with a warning), and how to drop it. */
async function openDatabase(engine: 'pglite' | 'postgres'): Promise<{ db: Database; drop: () => Promise<void> }> {
  const missing = engine === 'postgres' ? await postgresMissing() : 'PGlite asked for';
  if (missing === null) {
    const test = await createTestDatabase('watcher_service_test');
    return { db: createPostgresDatabase({ connectionString: test.url }), drop: () => test.drop() };
  }
  if (engine === 'postgres') console.warn(`[PGlite instead] ${missing}`);
  return { db: await createPgliteDatabase(), drop: async () => undefined };
}

export interface TestServiceOptions {
  readonly maxWatchesPerAccount?: number;
  readonly core?: CoreClient;
  readonly engine?: 'pglite' | 'postgres';
  /** The callers' plans (limits.ts `createPlanOf` over a memory ledger); none: proto bounds only. */
  readonly planOf?: PlanOf;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = await openDatabase(options.engine ?? 'pglite');
  // Every store write gets its own second, so "newest first" is the creation order.
  let storeNow = START;
  const store = await openWatchStore(database.db, { clock: () => new Date((storeNow += 1000)) });
  let serviceNow = START;
  const jobs = createMemoryJobSystem();
  const refreshRuns: string[] = [];
  const deliveryRuns: string[] = [];
  jobs.work(REFRESH_QUEUE, async (run) => void refreshRuns.push(run.id), { concurrency: 1 });
  jobs.work(DELIVERY_QUEUE, async (run) => void deliveryRuns.push(run.id), { concurrency: 1 });
  const keyring: SecretKeyring = { current: secretKey(generateSecretKey()), retired: [] };
  const service = createWatchService({
    store,
    jobs,
    webhooks: { policy: { allowPrivateTargets: false }, keyring },
    clock: () => new Date(serviceNow),
    streamPollMs: 50,
    ...(options.maxWatchesPerAccount !== undefined && { maxWatchesPerAccount: options.maxWatchesPerAccount }),
    ...(options.core && { core: options.core }),
    ...(options.planOf && { planOf: options.planOf }),
  });
  const server = createWatcherGrpcServer({ host: '127.0.0.1', port: 0, serviceToken: SERVICE_TOKEN, service });
  const { port } = await server.start();
  const client = createClient(WatchService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));
  return {
    store, jobs, keyring, client, refreshRuns, deliveryRuns, port, server,
    clock: { set: (ms) => void (serviceNow = ms) },
    async close() {
      await server.stop({ graceMs: 1000 });
      await jobs.close();
      await store.close();
      await database.drop();
    },
  };
}

/** The ConnectError a call failed with, and the retail.v1.ErrorDetail in its grpc-status-details-bin. */
export async function failureOf(call: Promise<unknown>): Promise<{ code: number; detail: ErrorDetail | undefined; message: string }> {
  try {
    await call;
  } catch (error) {
    const connectError = ConnectError.from(error);
    return { code: connectError.code, detail: connectError.findDetails(ErrorDetailSchema)[0], message: connectError.rawMessage };
  }
  throw new Error('the call succeeded; a failure was expected');
}

/** Waits until `check` holds (jobs run on the job system's own timers). */
export async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
