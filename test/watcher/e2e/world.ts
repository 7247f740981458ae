/**
 * The real parts the watcher's end-to-end tests share: one redis-server (the ledger on db 0, each
 * scenario's queues on a db of their own), the replay server with time-varying products, real cores
 * pointed at it, real metering on that Redis, and an HTTPS receiver with a self-signed certificate.
 * Each scenario opens its own PostgreSQL database, so schedules and watches never cross scenarios.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Domain } from '@retail/contract';
import { createCoreClient, registryOperation } from '@retail/gateway-shared';
import { createMetering, type MeteringInstance } from '@retail/metering';
import type { Condition } from '../../../watcher/src/model.js';
import type { JobSystem } from '../../../watcher/src/queue/index.js';
import { REFRESH_QUEUE, refreshNowJobId, syncProductSchedule } from '../../../watcher/src/refresh/index.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { generateWebhookSecret, loadSecretKeyring, sealSecret, type SecretKeyring } from '../../../watcher/src/webhooks/index.js';
import { startCore, type StartedCore } from '../../harness/core.js';
import { makeTestCertificate, startTestReceiver, type ReceivedRequest, type TestCertificate, type TestReceiver } from '../../harness/https-receiver.js';
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js';
import { startRedis, type RedisServer } from '../../harness/redis.js';
import { createReplayServer, type ReplayRequest, type ReplayServer } from '../../replay/server.js';
import type { TimelineState } from '../../replay/timeline-page.js';
import { createTimeline, type Timeline } from '../../replay/timeline.js';

/** Time-varying products, one or more per scenario: B0FXTIME01 … B0FXTIME08; B0FXTIME09 warms the cores up. */
export const TIMELINE_ASINS = Array.from({ length: 9 }, (_, i) => `B0FXTIME0${i + 1}`);
const WARM_UP_ASIN = TIMELINE_ASINS[8]!;

/**
 * Product pages stay in the core's cache for one second: a run's GetProduct and GetSalesEstimate
 * share one fetch, and a run two seconds later reads the page afresh.
 */
export const CORE_ENV = { CACHE_TTL_SECONDS: 'product=1' } as const;

export interface World {
  readonly redis: RedisServer;
  readonly replay: ReplayServer;
  readonly timeline: Timeline;
  readonly metering: MeteringInstance;
  readonly receiver: TestReceiver;
  /** PEM file of the receiver's certificate, for NODE_EXTRA_CA_CERTS of worker processes. */
  readonly certificateFile: string;
  readonly certificate: TestCertificate;
  /** WEBHOOK_SECRET_KEY of every watcher here, and its keyring for sealing secrets in the test. */
  readonly secretKey: string;
  readonly keyring: SecretKeyring;
  /** While true the receiver answers 503. */
  receiverDown: boolean;
  /** The requests the receiver answered 204: what was delivered. */
  readonly delivered: ReceivedRequest[];
  /**
   * Called on every marketplace request (to act at a precise moment), with the number of the replay
   * server that got it: 0 for this one, others for servers a test adds.
   */
  onFetch?: (request: ReplayRequest, server: number) => void;
  /** A core of its own (own cache, own single flight) on a free port, reading `origin` (default: the replay server). */
  startCore(origin?: string): Promise<StartedCore>;
  close(): Promise<void>;
}

export async function openWorld(): Promise<World> {
  const closers: Array<() => Promise<unknown>> = [];
  const redis = await startRedis();
  closers.push(() => redis.stop());
  const timeline = createTimeline({ asins: TIMELINE_ASINS });
  const replay = await createReplayServer({
    corpusDirs: [resolve(import.meta.dirname, '../../fixtures/pages')],
    timeline,
    faults: (request) => void world.onFetch?.(request, 0),
  });
  closers.push(() => replay.close());
  const metering = await createMetering({ redisUrl: redis.url });
  closers.push(() => metering.close());
  const certificate = makeTestCertificate();
  const directory = mkdtempSync(join(tmpdir(), 'watcher-e2e-'));
  closers.push(async () => rmSync(directory, { recursive: true, force: true }));
  const certificateFile = join(directory, 'receiver.pem');
  writeFileSync(certificateFile, certificate.cert);
  const secretKey = randomBytes(32).toString('base64');

  const world: World = {
    redis, replay, timeline, metering, certificate, certificateFile, secretKey,
    keyring: loadSecretKeyring({ env: { WEBHOOK_SECRET_KEY: secretKey } }),
    receiverDown: false,
    delivered: [],
    receiver: await startTestReceiver(certificate, (request, response) => {
      if (world.receiverDown) return void response.writeHead(503).end();
      world.delivered.push(request);
      response.writeHead(204).end();
    }),
    async startCore(origin = replay.origin) {
      const core = await startCore({ marketplaceOrigin: origin, env: CORE_ENV });
      closers.push(() => core.stop());
      // A core's first page starts its parse workers: seconds on a busy machine, which a refresh's
      // deadline should not have to absorb.
      const client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
      await client.callOperation(registryOperation('GetProduct'), { asin: WARM_UP_ASIN, domain: Domain.US }, { requestId: 'warm-up' });
      return core;
    },
    async close() {
      for (const close of closers.reverse()) await close().catch(() => undefined);
    },
  };
  closers.push(() => world.receiver.close());
  return world;
}

/** A scenario's own PostgreSQL database and store, and the Redis URL of its own queues. */
export interface Scenario {
  readonly database: TestDatabase;
  readonly store: WatchStore;
  readonly queueRedisUrl: string;
  close(): Promise<void>;
}

export async function openScenario(world: World, queueDb: number): Promise<Scenario> {
  const database = await createTestDatabase('watcher_e2e');
  const store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }));
  return {
    database,
    store,
    queueRedisUrl: `${world.redis.url}/${queueDb}`,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

export interface CreatedWatch {
  readonly watchId: string;
  readonly accountId: string;
  readonly asin: string;
  /** The plain `whsec_` secret, as the create response shows it once. */
  readonly secret: string;
}

/** The watch row alone, with its sealed secret (scheduleProduct gives it its runs). */
export async function insertWatch(
  world: World,
  store: WatchStore,
  watch: { accountId: string; asin: string; intervalSeconds: number; conditions: Condition[]; webhook?: boolean },
): Promise<CreatedWatch> {
  const watchId = randomUUID();
  const secret = generateWebhookSecret();
  await store.watches.create({
    id: watchId,
    accountId: watch.accountId,
    domain: 'US',
    asin: watch.asin,
    intervalSeconds: watch.intervalSeconds,
    conditions: watch.conditions,
    ...(watch.webhook && { webhook: { url: `https://localhost:${world.receiver.port}/retail-events`, secretCiphertext: sealSecret(world.keyring, secret, watchId) } }),
  });
  return { watchId, accountId: watch.accountId, asin: watch.asin, secret };
}

/** What the WatchService does after a create: the product's schedule, and one refresh now for the first snapshot. */
export async function scheduleProduct(store: WatchStore, jobs: JobSystem, asin: string): Promise<void> {
  const refreshes = jobs.queue(REFRESH_QUEUE);
  const product = { domain: 'US' as const, asin };
  await syncProductSchedule(store, refreshes, product);
  await refreshes.add(product, { id: refreshNowJobId('US', asin), priority: 'interactive' });
}

/** A watch as the WatchService creates one: the row, the schedule, a refresh now. */
export async function createWatch(
  world: World,
  store: WatchStore,
  jobs: JobSystem,
  watch: { accountId: string; asin: string; intervalSeconds: number; conditions: Condition[]; webhook?: boolean },
): Promise<CreatedWatch> {
  const created = await insertWatch(world, store, watch);
  await scheduleProduct(store, jobs, watch.asin);
  return created;
}

/** The environment of a watcher process of `scenario`, reading through `core`, on the world's ledger, keys and receiver. */
export function watcherProcessEnv(world: World, scenario: Scenario, core: { address: string; token: string }): Record<string, string> {
  return {
    DATABASE_URL: scenario.database.url,
    QUEUE_REDIS_URL: scenario.queueRedisUrl,
    LEDGER_REDIS_URL: world.redis.url,
    CORE_ADDRESS: core.address,
    SERVICE_TOKEN: core.token,
    WEBHOOK_SECRET_KEY: world.secretKey,
    NODE_EXTRA_CA_CERTS: world.certificateFile,
  };
}

/** The harness's wait, for the files that import it from here. */
export { until } from '../../harness/until.js';

/** True when a snapshot shows what the timeline state says (price, stock, buy-box seller). */
export function showsState(snapshot: { price?: { value: number }; isInStock?: boolean; buyboxSellerId?: string } | undefined, state: TimelineState): boolean {
  if (!snapshot) return false;
  return state.inStock
    ? snapshot.isInStock === true && snapshot.price?.value === state.price && snapshot.buyboxSellerId === state.sellerId
    : snapshot.isInStock === false && snapshot.price === undefined;
}

/** The webhook bodies the receiver took for one watch, in arrival order. */
export function deliveredTo(world: World, watchId: string): Array<{ request: ReceivedRequest; body: { id: string; watchId: string; type: string } }> {
  return world.delivered
    .map((request) => ({ request, body: JSON.parse(request.body) as { id: string; watchId: string; type: string } }))
    .filter(({ body }) => body.watchId === watchId);
}

/** Every snapshot of a product, oldest first. */
export function snapshotsOf(store: WatchStore, asin: string) {
  return store.snapshots.history({ domain: 'US', asin, from: new Date(0), to: new Date(Date.now() + 3_600_000) });
}
