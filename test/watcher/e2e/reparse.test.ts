/**
 * Issue 23's repair end to end, every part real: a watch lives through a layout drift (the replay
 * server's `buybox-redesign`, switched on and off) read by a real core whose pages the page archive
 * keeps (the core's tap, the hand-off stream on the test's own Redis, the watcher's recorder into PostgreSQL); its
 * webhooks go through BullMQ on a real redis-server to an HTTPS receiver that verifies them with
 * `standardwebhooks`. Then the parser is fixed (fixed-parser-pool.ts: a product parser one version
 * up that reads the redesigned buy box) and `npm run admin -- reparse` repairs the history from the
 * archive. Refreshes are driven one by one (never by a schedule). Skips, saying so, without
 * PostgreSQL or redis-server.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { createCoreClient } from '@retail/gateway-shared';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReparseCommand } from '../../../watcher/src/admin/reparse-command.js';
import type { PageArchiveRecorder } from '../../../watcher/src/archive/page-archive-recorder.js';
import { startPageArchiveRecorder } from '../../../watcher/src/archive/start-page-archive.js';
import type { Condition } from '../../../watcher/src/model.js';
import { createBullJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { createCoreSnapshotReader, createRefreshProcessor, DELIVERY_QUEUE } from '../../../watcher/src/refresh/index.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { createWebhookSender, generateWebhookSecret, loadSecretKeyring, sealSecret } from '../../../watcher/src/webhooks/index.js';
import { startWatcherWorkers, type WatcherWorkers } from '../../../watcher/src/workers/index.js';
import { createMovableClock, startCore, type StartedCore } from '../../harness/core.js';
import { makeTestCertificate, startTestReceiver, type TestReceiver } from '../../harness/https-receiver.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import type { LayoutDrift } from '../../replay/layout-drift.js';
import { createReplayServer, type ReplayServer } from '../../replay/server.js';
import { createTimeline } from '../../replay/timeline.js';
import { eventTypes, HOUR, runOf, START } from '../refresh/fixtures.js';
import { createFixableParsePool } from './fixed-parser-pool.js';
import { until } from './world.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const ASIN = 'B0FXTIME01';
const PRICE_AND_STOCK: Condition[] = [
  { type: 'PRICE_AT_OR_BELOW', value: 9 },
  { type: 'PRICE_DROP_PERCENT', value: 15 },
  { type: 'OUT_OF_STOCK' },
  { type: 'BACK_IN_STOCK' },
  { type: 'BUYBOX_SELLER_CHANGED' },
  { type: 'ANY_CHANGE' },
];
const ACME_AT = (price: number) => ({ price: { value: price, currency: 'USD' }, isInStock: true, buyboxSellerId: 'A1TIMELINEACME' });

describe.skipIf(missing !== null)('re-parsing restores a drifted history from the page archive, every part real', () => {
  const drift: { current: LayoutDrift | undefined } = { current: undefined };
  const coreClock = createMovableClock();
  const timeline = createTimeline({ asins: [ASIN] });
  const pool = createFixableParsePool();
  const certificate = makeTestCertificate();
  const keyring = loadSecretKeyring({ env: { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') } });
  let redis: RedisServer;
  let metering: MeteringInstance;
  let database: TestDatabase;
  let store: WatchStore;
  let replay: ReplayServer;
  let core: StartedCore;
  let jobs: JobSystem;
  let workers: WatcherWorkers;
  let recorder: PageArchiveRecorder;
  let receiver: TestReceiver;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    redis = await startRedis();
    metering = await createMetering({ redisUrl: redis.url });
    database = await createTestDatabase('watcher_reparse');
    // The watch is created at START, when the driven runs begin (runOf's due times).
    store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }), { clock: () => new Date(START) });
    replay = await createReplayServer({ corpusDirs: [resolve(import.meta.dirname, '../../fixtures/pages')], timeline, drift });
    // A refresh's two reads share one fetch (the product page stays cached ten minutes); the test moves
    // the core's clock an hour between rounds, so each round fetches the page again, however slow the machine.
    // The core's cache Redis is this test's own: the page cache, and the hand-off stream the watcher's
    // recorder reads as it does in a deployment. (Without one, the core would hand its pages to the
    // process's in-memory stream, which other test files sharing this worker may have written to.)
    const cacheRedisUrl = `${redis.url}/2`;
    core = await startCore({ marketplaceOrigin: replay.origin, env: { CACHE_TTL_SECONDS: 'product=600', CACHE_REDIS_URL: cacheRedisUrl }, parsePool: pool, clock: coreClock.clock });
    recorder = (await startPageArchiveRecorder({ CACHE_REDIS_URL: cacheRedisUrl }, store.pages, () => undefined))!;
    receiver = await startTestReceiver(certificate);
    const queueRedisUrl = `${redis.url}/3`;
    jobs = await createBullJobSystem({ redisUrl: queueRedisUrl });
    const client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
    workers = await startWatcherWorkers({
      store, jobs, meter: metering.meter, accounts: metering.admin, core: client,
      reader: createCoreSnapshotReader(client),
      webhookConfig: { policy: { allowPrivateTargets: true }, timeoutMs: 5_000 },
      secretBox: keyring,
      sender: createWebhookSender({ policy: { allowPrivateTargets: true }, trustedCa: certificate.cert }),
      // One delivery at a time: a watch's later event waits (with back-off) while an earlier one is open.
      concurrency: { delivery: 1 },
      log: () => undefined,
    });
    env = { DATABASE_URL: database.url, QUEUE_REDIS_URL: queueRedisUrl };
  }, 120_000);
  afterAll(async () => {
    await workers?.stop();
    await jobs?.close();
    await recorder?.stop();
    await core?.stop();
    await replay?.close();
    await receiver?.close();
    await store?.close();
    await database?.drop();
    await metering?.close();
    await redis?.stop();
  });

  /** `npm run admin -- reparse …` as the operator runs it; its exit code and the report it printed. */
  async function reparse(...args: string[]) {
    const out: string[] = [];
    const code = await runReparseCommand(['--domain', 'US', '--kind', 'product', '--since', new Date(Date.now() - HOUR).toISOString(), ...args], env, {
      out: (line) => out.push(line), err: () => undefined,
    });
    return { code, report: JSON.parse(out.join('\n')) as Record<string, unknown> };
  }

  it('marks the drifted points and fires nothing for them; after the parser fix the job restores their values as revised, sends no webhook, and a second run changes nothing', async () => {
    const { accountId } = await metering.admin.createAccount({ units: 20 });
    const watchId = randomUUID();
    const secret = generateWebhookSecret();
    await store.watches.create({
      id: watchId, accountId, domain: 'US', asin: ASIN, intervalSeconds: 3600, conditions: PRICE_AND_STOCK,
      webhook: { url: `https://localhost:${receiver.port}/retail-events`, secretCiphertext: sealSecret(keyring, secret, watchId) },
    });
    const refresh = createRefreshProcessor({ store, meter: metering.meter, reader: createCoreSnapshotReader(createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 })), deliveries: jobs.queue(DELIVERY_QUEUE) });
    // Before each round: the page's layout and the product's timeline position (0: 10 USD, 1: 8 USD).
    const rounds: Array<[LayoutDrift | undefined, number]> = [[undefined, 0], ['buybox-redesign', 0], ['buybox-redesign', 1], [undefined, 1]];
    const perRound: string[][] = [];
    for (const [index, [layout, position]] of rounds.entries()) {
      coreClock.setAhead(index * HOUR);
      drift.current = layout;
      timeline.set(ASIN, position);
      const before = (await eventTypes(store, accountId, watchId)).length;
      await refresh(runOf('US', ASIN, START + index * HOUR));
      perRound.push((await eventTypes(store, accountId, watchId)).slice(before).sort());
    }
    drift.current = undefined;
    const history = () => store.snapshots.history({ domain: 'US', asin: ASIN, from: new Date(START), to: new Date(START + rounds.length * HOUR) });

    // Through the drift: no event, the points marked; the drop that happened during it fires once the page shows it.
    expect(perRound).toEqual([[], [], [], ['ANY_CHANGE', 'PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT']]);
    const drifted = await history();
    expect(drifted.map((p) => p.quality ?? 'ok')).toEqual(['ok', 'suspect', 'suspect', 'ok']);
    for (const point of drifted.slice(1, 3)) {
      expect(point.unknownFields).toEqual(['price', 'isInStock']);
      expect(point).not.toHaveProperty('price');
    }
    // The round-3 events reach the receiver, signed.
    await until(() => receiver.received.length === 3, 'the three webhooks of the drop');
    const verifier = new Webhook(secret);
    const delivered = () => receiver.received.map((r) => (verifier.verify(r.body, r.headers) as { type: string }).type).sort();
    expect(delivered()).toEqual(['ANY_CHANGE', 'PRICE_AT_OR_BELOW', 'PRICE_DROP_PERCENT']);
    // Every refresh's page was archived (a 20 % drop is within the plausibility bound: no confirmation read).
    await until(async () => (await store.pages.count()) >= 4, 'four archived pages');
    expect(await store.pages.count()).toBe(4);

    // The parser is fixed: one version up, it reads the redesigned buy box.
    pool.fixed = true;
    const first = await reparse();
    expect(first.code).toBe(0);
    expect(first.report).toMatchObject({
      state: 'done', pages: 4, reparsed: 4, skipped: 0, unreadable: 0, withoutPoint: 0, pointsRevised: 2,
      corrected: { price: 2, isInStock: 2 },
    });

    const repaired = await history();
    expect(repaired.map((p) => p.quality ?? 'ok')).toEqual(['ok', 'revised', 'revised', 'ok']);
    expect(repaired[1]).toMatchObject(ACME_AT(10));
    expect(repaired[2]).toMatchObject(ACME_AT(8));
    expect(repaired[1]).not.toHaveProperty('unknownFields');
    // The untouched points are as they were.
    expect(repaired[0]).toEqual(drifted[0]);
    expect(repaired[3]).toEqual(drifted[3]);
    // The old values are kept for audit, with both parsers and the job.
    const audit = await store.reparseJobs.revisions(first.report.id as string);
    expect(audit.filter((r) => r.field === 'price').map((r) => [r.oldValue, r.oldMark, r.newValue])).toEqual([
      [null, 'unknown', { value: 10, currency: 'USD' }],
      [null, 'unknown', { value: 8, currency: 'USD' }],
    ]);
    expect(new Set(audit.map((r) => `${r.oldParser} → ${r.newParser}`))).toEqual(new Set([`product-page@${pool.version('product-page') - 1} → product-page@${pool.version('product-page')}`]));

    // No event for the past, so no webhook: the receiver still has the round-3 three after the delivery worker had time to send any.
    expect((await eventTypes(store, accountId, watchId)).length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(delivered()).toHaveLength(3);

    // Idempotent: every page was read by the current parser, so a second run skips them all and changes nothing.
    const second = await reparse();
    expect(second.report).toMatchObject({ state: 'done', pages: 4, reparsed: 0, skipped: 4, pointsRevised: 0, corrected: {} });
    // --force reads them again: the same values, so still nothing to correct.
    const forced = await reparse('--force');
    expect(forced.report).toMatchObject({ state: 'done', pages: 4, reparsed: 4, skipped: 0, pointsRevised: 0, corrected: {} });
    expect(await history()).toEqual(repaired);

    // The report is there afterwards too.
    const out: string[] = [];
    expect(await runReparseCommand(['status', first.report.id as string], env, { out: (line) => out.push(line), err: () => undefined })).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual(first.report);
  }, 120_000);
});
