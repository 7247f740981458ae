/**
 * One running JobService for a test file: a PGlite store, the in-memory job system with the real
 * bulk-job workers, a memory ledger, a stand-in core on a real gRPC port (answers by ASIN: a product,
 * NOT_FOUND, or a core error), an HTTPS receiver for the end webhooks, the watcher's gRPC server on a
 * free port, and a client nobody here wrote (@connectrpc/connect over its gRPC transport).
 */
import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { type Client, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BatchItemSchema, Domain, ErrorReason, GetProductResponseSchema, JobService, type BatchItem } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { createMemoryJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { createJobService, createWatchService, createWatcherGrpcServer, type WatcherGrpcServer } from '../../../watcher/src/service/index.js';
import { createPgliteDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { createWebhookSender } from '../../../watcher/src/webhooks/index.js';
import { generateSecretKey, secretKey, type SecretKeyring } from '../../../watcher/src/webhooks/secret-box.js';
import { startJobWorkers } from '../../../watcher/src/workers/job-workers.js';
import { makeTestCertificate, startTestReceiver, type ReceivedRequest, type TestReceiver } from '../../harness/https-receiver.js';
import { coreError, startStubCore, type StubCore } from '../../harness/stub-core.js';

export const SERVICE_TOKEN = 'jobs-test-token';

/** ASINs the stand-in core answers with something else than a product. */
export const NOT_FOUND_ASIN = 'B0NOTFOUND';
export const BROKEN_ASIN = 'B0BROKEN00';
/** Blocked (503) the first time it is asked for, a product after that. */
export const BLOCKED_ONCE_ASIN = 'B0BLOCKED1';

export const productItem = (asin: string): BatchItem => create(BatchItemSchema, { request: { case: 'product', value: { asin, domain: Domain.US } } });

export interface JobWorld {
  readonly store: WatchStore;
  readonly jobs: JobSystem;
  readonly metering: MeteringInstance;
  readonly core: StubCore;
  readonly receiver: TestReceiver;
  readonly delivered: ReceivedRequest[];
  readonly client: Client<typeof JobService>;
  readonly server: WatcherGrpcServer;
  /** A new account with `units`. */
  account(units: number): Promise<string>;
  close(): Promise<void>;
}

export function as(account: string): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'x-retail-account': account } };
}

export async function openJobWorld(options: { chunkSize?: number } = {}): Promise<JobWorld> {
  const store = await openWatchStore(await createPgliteDatabase());
  const jobs = createMemoryJobSystem();
  const metering = await createMetering({});
  let blocked = false;
  const core = await startStubCore({
    serviceToken: SERVICE_TOKEN,
    handlers: {
      GetProduct: (request) => {
        const asin = (request as unknown as { asin: string }).asin;
        if (asin === NOT_FOUND_ASIN) throw coreError(ErrorReason.NOT_FOUND, 'no such product');
        if (asin === BROKEN_ASIN) throw coreError(ErrorReason.INTERNAL);
        if (asin === BLOCKED_ONCE_ASIN && !blocked) {
          blocked = true;
          throw coreError(ErrorReason.UPSTREAM_BLOCKED);
        }
        return create(GetProductResponseSchema, { retailProduct: { asin, title: `Product ${asin}` } });
      },
    },
  });
  const certificate = makeTestCertificate();
  const delivered: ReceivedRequest[] = [];
  const receiver = await startTestReceiver(certificate, (request, response) => {
    delivered.push(request);
    response.writeHead(204).end();
  });
  const keyring: SecretKeyring = { current: secretKey(generateSecretKey()), retired: [] };
  const policy = { allowPrivateTargets: true };
  const sender = createWebhookSender({ policy, trustedCa: certificate.cert });
  const coreClient = createCoreClient({ address: core.address, serviceToken: SERVICE_TOKEN, deadlineMs: 10_000 });
  const { workers } = await startJobWorkers({
    store, jobs, meter: metering.meter, core: coreClient, keyring, sender, settings: { chunks: 2, items: 4 }, webhookConcurrency: 2, log: () => undefined,
  });
  const webhooks = { policy, keyring };
  const server = createWatcherGrpcServer({
    host: '127.0.0.1', port: 0, serviceToken: SERVICE_TOKEN,
    service: createWatchService({ store, jobs, webhooks }),
    jobs: createJobService({ store, jobs, webhooks, streamPollMs: 50, ...(options.chunkSize !== undefined && { chunkSize: options.chunkSize }) }),
  });
  const { port } = await server.start();
  const client = createClient(JobService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));
  return {
    store, jobs, metering, core, receiver, delivered, client, server,
    async account(units) {
      const { accountId } = await metering.admin.createAccount({ units, plan: 'unlimited' });
      return accountId;
    },
    async close() {
      await server.stop({ graceMs: 500 });
      await Promise.all(workers.map((w) => w.close()));
      await jobs.close();
      await sender.close();
      await receiver.close();
      await core.close();
      await metering.close();
      await store.close();
    },
  };
}

/** The harness's wait, for the files that import it from here. */
export { until } from '../../harness/until.js';

export const newAccountId = () => `acct-${randomUUID()}`;
