/**
 * The one-process composition behind `npm start`: the core on its gRPC port, the three gateways
 * and the console behind one router that routes exactly as the Kubernetes Ingress does, all sharing
 * one metering library. Gateways still call the core over real gRPC, so this is the same code path
 * as the separate deployments. This is the only module that imports both the core and the gateways.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { createCoreServer, describeReachability, loadCoreConfig } from '@retail/core';
import { createClientArchiveApi, createClientJobApi, createClientWatchApi, createConsoleFromEnv } from '@retail/console';
import { createGraphqlGateway } from '@retail/graphql';
import { createMcpGateway, listingSettingsOf } from '@retail/mcp';
import { createMeteringFromEnv, DEVELOPMENT_PLAN, meteringCounters, type Plan } from '@retail/metering';
import { createRestGateway, type LandingLink } from '@retail/rest';
import { openDatabase } from '@retail/watcher/store/index';
import { startWatcher } from '@retail/watcher/workers/index';
import { answerClientErrorsWithEnvelope, answerHalfClosedRequests, createCoreClient, createGatewayLogger, observeRequests, registerMeteringMetrics } from '@retail/gateway-shared';
import type { AppConfig } from './config.js';
import { DEVELOPMENT_KEY_FILE, developmentKey } from './development-key.js';
import type { DemoCatalogue } from './demo-catalogue/model.js';
import { createDemoCatalogueRouter } from './demo-catalogue/router.js';

export interface RunningStack {
  /** http://host:port of the router. */
  readonly url: string;
  /** host:port of the core's gRPC server. */
  readonly coreAddress: string;
  /** host:port of the watcher's WatchService (loopback), when this build has it. */
  readonly watcherAddress?: string;
  /**
   * A key for a development account on the development plan: made at the first start on a data
   * directory and the same one at every later start (development-key.ts).
   */
  readonly devKey: string;
  /**
   * The marketplace's reachability in one line, once the core's start-up probe has its answer (at
   * most UPSTREAM_TIMEOUT_MS): "marketplace: unreachable (www.amazon.com: DNS lookup failed, ...)".
   * For the start banner.
   */
  marketplaceLine(): Promise<string>;
  readonly devAccountId: string;
  /** The development key's plan (DEVELOPMENT_PLAN, as the plan table in force defines it) and its units at start. */
  readonly devPlan: { readonly name: string } & Plan;
  readonly devUnits: number;
  /** The development account's balance at this start (devUnits for a new account). */
  readonly devBalance: number;
  /** Whether the development account is the one an earlier start on this data directory made. */
  readonly devAccountReused: boolean;
  /** Where the development key is kept between starts (none with DATABASE_URL). */
  readonly devKeyFile?: string;
  /** The token the core and the watcher require (`authorization: Bearer …`), for gRPC clients on this machine. */
  readonly serviceToken: string;
  /** Whether webhooks may go to this machine's loopback over http (WEBHOOK_ALLOW_LOOPBACK, on by default here). */
  readonly webhooksToLoopback: boolean;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** In demo mode (`npm run demo`): what the recorded pages can answer, served at /demo. */
  readonly demoCatalogue?: DemoCatalogue;
  /** More links on the landing page (the demo adds its catalogue). */
  readonly landingLinks?: readonly LandingLink[];
}

export async function startStack(config: AppConfig, env: NodeJS.ProcessEnv = process.env, options: StackOptions = {}): Promise<RunningStack> {
  const coreConfig = loadCoreConfig({
    ...env,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(config.grpcPort),
    SERVICE_TOKEN: config.serviceToken,
    ...(config.marketplaceOrigin ? { MARKETPLACE_ORIGIN: config.marketplaceOrigin } : {}),
  });
  const core = createCoreServer({ config: coreConfig });
  const { port: grpcPort } = await core.start();
  const coreAddress = `127.0.0.1:${grpcPort}`;

  // The level comes from the environment this stack was given, as the core's does (loadCoreConfig
  // above), not from this process's: a caller passing LOG_LEVEL=silent gets a silent stack.
  const logLevel = env.LOG_LEVEL || 'info';
  // One database for the watcher and the ledger's record (PGlite in WATCHER_DATA_DIR unless
  // DATABASE_URL): keys, accounts and balances survive a restart as the watches do.
  const database = await openDatabase(config.watcher.store);
  const ledgerLog = createGatewayLogger('ledger', logLevel);
  const metering = await createMeteringFromEnv(env, { record: database, log: (line) => ledgerLog.info(line) });
  registerMeteringMetrics(meteringCounters);
  // The watcher reads through the same core over gRPC and charges the same ledger.
  const watcherLog = createGatewayLogger('watcher', logLevel);
  const watcher = await startWatcher({
    config: { ...config.watcher, core: { address: coreAddress, deadlineMs: config.coreDeadlineMs } },
    env,
    metering,
    database,
    log: (message) => watcherLog.info(message),
  });
  // One client for the gateways and the console: the lookups to the core, the watch operations to the watcher.
  const coreClient = createCoreClient({
    address: coreAddress,
    serviceToken: config.serviceToken,
    deadlineMs: config.coreDeadlineMs,
    batchDeadlineMs: config.coreBatchDeadlineMs,
    coalesce: config.coreCoalesce,
    ...(watcher.grpcAddress !== undefined && { watcherAddress: watcher.grpcAddress }),
  });
  let console_: ReturnType<typeof createConsoleFromEnv>;
  try {
    // Development defaults: the console is open for sign-up on a laptop; deployments default to closed.
    console_ = createConsoleFromEnv({ metering, plans: metering.plans, env, database, defaultSignupMode: 'open', watches: createClientWatchApi({ client: coreClient, meter: metering.meter }), jobs: createClientJobApi({ client: coreClient }), archive: createClientArchiveApi({ client: coreClient }) });
  } catch (error) {
    await watcher.stop();
    await metering.close();
    await database.close();
    throw error;
  }

  const app = express();
  app.disable('x-powered-by');
  // As in every deployment (gateway-shared's createGatewayApp): an ETag would let a metered answer be
  // replayed as a 304 to If-None-Match after it was charged.
  app.set('etag', false);
  // Behind the Ingress or a local proxy the client address is in X-Forwarded-For; the console's
  // sign-in limits count per client, not per proxy.
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.use(observeRequests(createGatewayLogger('retail', logLevel)));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const checks = await Promise.all([coreClient.ping(), metering.ready(), console_.ready(), watcher.ready()].map((p) => p.catch(() => false)));
    const ready = checks.every(Boolean);
    // The marketplace is reported, never a reason to be unready (docs/resilience.md, Readiness).
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', marketplace: core.marketplace() });
  });
  const corsOrigins = (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  // Order does not matter for correctness: each router owns disjoint paths, as the Ingress routes them.
  app.use(await createGraphqlGateway({ core: coreClient, metering }));
  app.use(createMcpGateway({ core: coreClient, metering, ...listingSettingsOf(env) }));
  app.use('/console', console_.router);
  // Outside demo mode it says there is no catalogue rather than leaving /demo a bare 404.
  app.use(createDemoCatalogueRouter(options.demoCatalogue));
  app.use(createRestGateway({ core: coreClient, metering, corsOrigins, pages: { extraLinks: options.landingLinks ?? [] } }));

  // Express 5 calls listen's callback with the error too (a port in use): only a server that listens resolves.
  const server: Server = await new Promise((resolve, reject) => {
    const s = answerHalfClosedRequests(answerClientErrorsWithEnvelope(app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(s)))));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const development = await developmentKey(metering, config.devUnits, config.watcher.store);
  const { key: devKey, accountId: devAccountId } = development;

  return {
    url: `http://${config.host}:${port}`,
    coreAddress,
    ...(watcher.grpcAddress !== undefined && { watcherAddress: watcher.grpcAddress }),
    devKey,
    async marketplaceLine() {
      await core.probed();
      return describeReachability(core.marketplace(), config.marketplaceOrigin ? { upstream: config.marketplaceOrigin } : {});
    },
    devAccountId,
    devPlan: { name: DEVELOPMENT_PLAN, ...metering.plans[DEVELOPMENT_PLAN]! },
    devUnits: config.devUnits,
    devBalance: development.balance,
    devAccountReused: development.reused,
    ...(!config.watcher.store.databaseUrl && { devKeyFile: join(config.watcher.store.dataDir, DEVELOPMENT_KEY_FILE) }),
    serviceToken: config.serviceToken,
    webhooksToLoopback: config.watcher.webhooks.policy.allowLoopback === true,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await console_.close();
      await watcher.stop();
      await metering.close();
      await database.close();
      await core.stop({ graceMs: 2_000 });
    },
  };
}
