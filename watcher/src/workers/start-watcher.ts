/**
 * One watcher process, composed from its settings: the store (PostgreSQL or PGlite), the job system
 * (BullMQ or the in-memory twin), the ledger, the core client behind the snapshot reader, and per role
 * the workers and the WatchService's gRPC server. Used by watcher/src/main.ts (the deployable) and by
 * the one-process `npm start` (app/src/stack.ts), which passes its own metering.
 */
import { createCoreClient } from '@retail/gateway-shared';
import { createMeteringFromEnv, type MeteringInstance } from '@retail/metering';
import { createPostgresDatabase } from '@retail/database/pg-database';
import type { Queryable } from '@retail/database/database';
import type { WatcherConfig } from '../config.js';
import { createJobSystemFromEnv } from '../queue/index.js';
import { createCoreSnapshotReader } from '../refresh/index.js';
import { openDatabase, openWatchStore, type Database } from '../store/index.js';
import { loadSecretKeyring } from '../webhooks/index.js';
import { startWatcherWorkers, type WatcherWorkers } from './start-workers.js';
import { createJobService, createPlanOf, createWatchService, createWatcherGrpcServer, watchLimitsFromEnv, type WatcherGrpcServer } from '../service/index.js';
import { serviceLogOf } from './service-log.js';
import { startPageArchiveRecorder } from '../archive/start-page-archive.js';

export interface StartWatcherOptions {
  readonly config: WatcherConfig;
  /** For the parts that read their own variables: job system, ledger, webhook secret keys. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A ledger to share (the one-process stack); otherwise one from the environment, closed at stop. */
  readonly metering?: MeteringInstance;
  /** A database to share (the one-process stack: the ledger's record lives in it too); its owner closes it. */
  readonly database?: Database;
  readonly log: (line: string) => void;
}

export interface RunningWatcher {
  /** host:port of the WatchService, when this role serves it and the build has it. */
  readonly grpcAddress?: string;
  /** Store, job system and ledger answer. */
  ready(): Promise<boolean>;
  /** Stops serving and taking jobs, waits for running ones, then closes everything it opened. */
  stop(): Promise<void>;
}

export async function startWatcher(options: StartWatcherOptions): Promise<RunningWatcher> {
  const { config, log } = options;
  const env = options.env as NodeJS.ProcessEnv;
  const closers: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch((error: unknown) => log(`close failed: ${(error as Error).message}`));
  };
  try {
    const store = await openWatchStore(options.database ?? (await openDatabase(config.store)), {
      log,
      ...(config.store.snapshotRetentionDays !== undefined && { snapshotRetentionDays: config.store.snapshotRetentionDays }),
      ...(config.store.jobResultRetentionDays !== undefined && { jobResultRetentionDays: config.store.jobResultRetentionDays }),
      ...(config.store.pageArchiveDays !== undefined && { pageArchiveDays: config.store.pageArchiveDays }),
    });
    if (!options.database) closers.push(() => store.close());
    const jobs = await createJobSystemFromEnv(env, {
      warn: log,
      ...(config.jobLockMs !== undefined && { lockDurationMs: config.jobLockMs }),
      ...(config.stalledCheckMs !== undefined && { stalledIntervalMs: config.stalledCheckMs }),
    });
    closers.push(() => jobs.close());
    const metering = options.metering ?? (await createMeteringFromEnv(env));
    if (!options.metering) closers.push(() => metering.close());
    // The generated key file is for one process with a data directory; PostgreSQL deployments set WEBHOOK_SECRET_KEY.
    const secretBox = loadSecretKeyring({ env, ...(!config.store.databaseUrl && { dataDir: config.store.dataDir }), warn: log });
    const core = createCoreClient({ address: config.core.address, serviceToken: config.serviceToken, deadlineMs: config.core.deadlineMs });

    let workers: WatcherWorkers | undefined;
    if (config.role !== 'api') {
      const billingRecord = config.billingExport ? billingExportRecord(options, closers) : undefined;
      workers = await startWatcherWorkers({
        store, jobs, meter: metering.meter, accounts: metering.admin, reader: createCoreSnapshotReader(core), core,
        jobWorkers: config.jobWorkers, webhookConfig: config.webhooks, secretBox, concurrency: config.concurrency, reparseConcurrency: config.reparseConcurrency, log,
        ...(config.operatorWebhook && { operatorWebhook: config.operatorWebhook }),
        ...(config.billingExport && billingRecord && { billingExport: { settings: config.billingExport, record: billingRecord } }),
      });
      closers.push(() => workers!.stop());
      // Raw pages the core fetched, recorded from its hand-off (docs/page-archive.md).
      const archive = await startPageArchiveRecorder(env, store.pages, log);
      if (archive) closers.push(() => archive.stop());
    }

    let server: WatcherGrpcServer | undefined;
    let grpcAddress: string | undefined;
    if (config.role !== 'worker') {
      const serviceLog = serviceLogOf(log);
      const service = createWatchService({
        store, jobs, core, webhooks: { policy: config.webhooks.policy, keyring: secretBox }, log: serviceLog,
        // The caller's plan narrows the interval and the cap; MAX_WATCHES_PER_ACCOUNT is the cap of plans without one.
        ...watchLimitsFromEnv(env), planOf: createPlanOf(metering),
      });
      const jobService = createJobService({ store, jobs, webhooks: { policy: config.webhooks.policy, keyring: secretBox }, chunkSize: config.jobChunkSize, log: serviceLog });
      server = createWatcherGrpcServer({ host: config.grpcHost, port: config.grpcPort, serviceToken: config.serviceToken, service, jobs: jobService, incidents: store, archive: store, reparse: { store, jobs }, log: serviceLog });
      const { port } = await server.start();
      closers.push(() => server!.stop({ graceMs: config.shutdownGraceMs }));
      grpcAddress = `${config.grpcHost === '0.0.0.0' ? '127.0.0.1' : config.grpcHost}:${port}`;
    }

    return {
      ...(grpcAddress !== undefined && { grpcAddress }),
      async ready() {
        const checks = [store.db.query('SELECT 1').then(() => true), jobs.ready(), metering.ready()];
        return (await Promise.all(checks.map((check) => check.catch(() => false)))).every(Boolean);
      },
      stop: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/**
 * The ledger's record the billing export reads: the shared database of the one-process stack (the record
 * lives in it), else its own small pool on LEDGER_DATABASE_URL. Without either there is no usage log.
 */
function billingExportRecord(options: StartWatcherOptions, closers: Array<() => Promise<unknown>>): Queryable {
  if (options.database) return options.database;
  const url = options.env.LEDGER_DATABASE_URL?.trim();
  if (!url) throw new Error('BILLING_EXPORT_URL needs the ledger\'s record: set LEDGER_DATABASE_URL');
  const record = createPostgresDatabase({ connectionString: url, maxConnections: 2 });
  closers.push(() => record.close());
  return record;
}
