/**
 * Data incidents end to end (issue 23, docs/data-health.md), every part real: the replay server's
 * product page under layout drift switched on and off, the real core parsing it over gRPC (no page
 * cache, so every call is a parse), its DataHealthService read by the watcher's incident-log reader
 * into PGlite, and the operator webhook delivered over HTTPS to a receiver that verifies each
 * signature with the `standardwebhooks` package.
 */
import { Domain, DataHealthService, DataIncidentState } from '@retail/contract';
import { createCoreClient, registryOperation, type CoreClient } from '@retail/gateway-shared';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncidentLogReader, createOperatorWebhookProcessor, OPERATOR_WEBHOOK_QUEUE } from '../../watcher/src/incidents/index.js';
import { createMemoryJobSystem, type JobSystem } from '../../watcher/src/queue/index.js';
import { createPgliteDatabase, openWatchStore, type WatchStore } from '../../watcher/src/store/index.js';
import { createWebhookSender, generateWebhookSecret } from '../../watcher/src/webhooks/index.js';
import { startCore, type StartedCore } from '../harness/core.js';
import { makeTestCertificate, startTestReceiver, type TestReceiver } from '../harness/https-receiver.js';
import type { LayoutDrift } from './layout-drift.js';
import { createReplayServer, type ReplayServer } from './server.js';
import { createTimeline } from './timeline.js';
import { until } from '../harness/until.js';

const ASIN = 'B0FXTIME01';
/** Longer than the core's batch of parses (50 ms) and its judgement of the window. */
const SETTLE_MS = 150;

let replay: ReplayServer;
let core: StartedCore;
let client: CoreClient;
let store: WatchStore;
let jobs: JobSystem;
let receiver: TestReceiver;
const drift: { current: LayoutDrift | undefined } = { current: undefined };
const secret = generateWebhookSecret();
const logLines: string[] = [];
let readLog: () => Promise<unknown>;

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [], timeline: createTimeline({ asins: [ASIN] }), drift });
  core = await startCore({ marketplaceOrigin: replay.origin, env: { CACHE_MAX_BYTES: '0' } });
  client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
  store = await openWatchStore(await createPgliteDatabase());
  jobs = createMemoryJobSystem();
  const certificate = makeTestCertificate();
  receiver = await startTestReceiver(certificate);
  const sender = createWebhookSender({ policy: { allowPrivateTargets: true }, trustedCa: certificate.cert });
  const webhook = { url: `https://localhost:${receiver.port}/retail-incidents`, secret };
  const deliver = createOperatorWebhookProcessor({ store, sender, webhook });
  jobs.work(OPERATOR_WEBHOOK_QUEUE, deliver.process, { concurrency: 1 });
  readLog = createIncidentLogReader({ store, core: client, operatorWebhooks: jobs.queue(OPERATOR_WEBHOOK_QUEUE), log: (line) => void logLines.push(line) });
}, 60_000);

afterAll(async () => {
  await jobs?.close();
  await store?.close();
  await receiver?.close();
  await core?.stop();
  await replay?.close();
});

async function readProducts(times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await client.callOperation(registryOperation('GetProduct'), { asin: ASIN, domain: Domain.US }, { requestId: `drift-${i}` });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }
}

async function productStatus() {
  const status = await client.unaryCall(DataHealthService.method.getDataStatus, {}, { requestId: 'status' });
  return status.kinds.find((k) => k.marketplace === 'US' && k.kind === 'product');
}

/** The receiver's deliveries, each verified with the operator's secret. */
const verified = () => receiver.received.map((request) => new Webhook(secret).verify(request.body, request.headers) as { type: string; incident: { to: string; fields: string[] } });

describe('a layout drift of product pages, end to end', () => {
  it('healthy pages open nothing; under a buy-box redesign a major incident opens within 20 parses, not within 4', async () => {
    await readProducts(20);
    expect((await productStatus())?.state ?? DataIncidentState.HEALTHY).toBe(DataIncidentState.HEALTHY);
    drift.current = 'buybox-redesign';
    await readProducts(4);
    expect((await productStatus())?.state).toBe(DataIncidentState.HEALTHY);
    await readProducts(16);
    expect(await productStatus()).toMatchObject({ state: DataIncidentState.MAJOR, fields: ['price', 'isInStock'] });
  }, 60_000);

  it('the watcher keeps the change and the operator webhook arrives once, signed, however often the log is read', async () => {
    await readLog();
    await readLog();
    await until(() => receiver.received.length >= 1, 'the operator webhook');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(verified()).toEqual([expect.objectContaining({ type: 'DATA_INCIDENT_OPENED', incident: expect.objectContaining({ to: 'major', fields: ['price', 'isInStock'] }) })]);
    const [change] = await store.incidents.since(new Date(0));
    expect(change).toMatchObject({ marketplace: 'US', kind: 'product', from: 'healthy', to: 'major', webhookStatus: 'DELIVERED' });
    expect(logLines).toEqual([expect.stringMatching(/^data incident opened: .*"to":"major"/)]);
  }, 30_000);

  it('after the drift ends the incident closes, and the closing arrives once too', async () => {
    drift.current = undefined;
    await readProducts(20);
    expect(await productStatus()).toMatchObject({ state: DataIncidentState.HEALTHY, fields: [] });
    await readLog();
    await until(() => receiver.received.length >= 2, 'the closing webhook');
    await readLog();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(verified().map((m) => m.type)).toEqual(['DATA_INCIDENT_OPENED', 'DATA_INCIDENT_CLOSED']);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(2);
    expect((await store.incidents.since(new Date(0))).map((c) => c.to)).toEqual(['healthy', 'major']);
  }, 60_000);
});
