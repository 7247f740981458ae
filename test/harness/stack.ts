/**
 * The stack the contract suite runs against, on free loopback ports: the marketplace replay server
 * (when RETAIL_CORPUS is set), the core (engineer A's harness when it exists, otherwise the stub
 * core, which says so through `coreKind`), the metering library (memory store, or a real
 * redis-server when asked and installed) and one express app hosting the gateways that the
 * drivers mount (REST always; GraphQL and MCP when their drivers are registered).
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express from 'express';
import { errorEnvelope } from '@retail/contract';
import { type CoreClient, answerClientErrorsWithEnvelope, answerHalfClosedRequests, createCoreClient } from '@retail/gateway-shared';
import { createDemoCatalogueRouter } from '../../app/src/demo-catalogue/router.js';
import { buildDemoCatalogue } from '../replay/catalogue.js';
import type { ReplayServer } from '../replay/server.js';
import { type StubHandler, startStubCore } from './stub-core.js';
import { type MeteringInstance, createMetering } from '@retail/metering';

const here = dirname(fileURLToPath(import.meta.url));

export const SERVICE_TOKEN = 'contract-suite-service-token';

/** What a gateway needs from the stack to mount itself. */
export interface GatewayDeps {
  readonly core: CoreClient;
  readonly metering: MeteringInstance;
}

export type Mount = (app: express.Express, deps: GatewayDeps) => void | Promise<void>;

export interface StackOptions {
  /** Gateways to host, in order (each mounts its router on the shared app). */
  readonly mounts: readonly Mount[];
  /** 'redis' starts a real redis-server (skips to memory with a note when it is not installed). */
  readonly ledger?: 'memory' | 'redis';
  /** Handlers of the stub core when the real core harness is absent. */
  readonly stubHandlers?: Record<string, StubHandler>;
  readonly coreDeadlineMs?: number;
  /** 'stub' forces the stub core even when the real core harness exists (gateway-only benchmarks). */
  readonly core?: 'auto' | 'stub';
  /** An already running core (host:port) to use instead of starting one; it must accept SERVICE_TOKEN. */
  readonly coreAddress?: string;
  /** CORE_COALESCE of the gateways' core client: true (the deployments' default) unless false. */
  readonly coalesce?: boolean;
}

export interface Stack {
  readonly baseUrl: string;
  readonly metering: MeteringInstance;
  readonly core: CoreClient;
  readonly coreKind: 'real' | 'stub' | 'external';
  readonly ledgerKind: 'memory' | 'redis';
  /** Replay server origin (MARKETPLACE_ORIGIN of the core). */
  readonly marketplaceOrigin: string;
  /** Why parts are missing (printed by the suite). */
  readonly notes: readonly string[];
  /** Moves the metering clock (rate-limit windows) without sleeping. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

interface Closer {
  close(): Promise<void> | void;
}

/**
 * Engineer B's replay server over the project's own fixture pages (test/fixtures/pages) and, when
 * RETAIL_CORPUS points at it, the corpus; never the real marketplace.
 */
async function startReplay(notes: string[], closers: Closer[]): Promise<ReplayServer> {
  const corpus = process.env.RETAIL_CORPUS;
  const dirs: string[] = [];
  if (corpus && existsSync(join(corpus, 'index.json'))) dirs.push(corpus);
  else notes.push('RETAIL_CORPUS is not set or has no index.json: the replay server has the project fixtures only, corpus cases skipped');
  const fixtures = join(here, '..', 'fixtures', 'pages');
  if (existsSync(join(fixtures, 'index.json'))) dirs.push(fixtures);
  const { createReplayServer } = await import('../replay/server.js');
  const replay = await createReplayServer({ corpusDirs: dirs });
  closers.push(replay);
  return replay;
}

/** Engineer A's core harness, found by convention; undefined while it has not landed. */
async function startRealCore(marketplaceOrigin: string, notes: string[], closers: Closer[]): Promise<string | undefined> {
  const harness = join(here, 'core.ts');
  if (!existsSync(harness)) {
    notes.push('test/harness/core.ts is absent: the stub core answers (success cases use it only for gateway behaviour)');
    return undefined;
  }
  const mod = (await import(pathToFileURL(harness).href)) as Record<string, unknown>;
  const start = (mod.startCore ?? mod.startCoreServer ?? mod.createCoreHarness) as
    | ((options: Record<string, unknown>) => Promise<{ address: string; close(): Promise<void> }>)
    | undefined;
  if (typeof start !== 'function') {
    notes.push('test/harness/core.ts exports no startCore(): the stub core answers');
    return undefined;
  }
  const core = await start({ serviceToken: SERVICE_TOKEN, marketplaceOrigin });
  closers.push(core);
  return core.address;
}

async function startLedger(kind: 'memory' | 'redis', clock: () => number, notes: string[], closers: Closer[]) {
  if (kind === 'redis') {
    const { redisMissing, startRedis } = await import('./redis.js');
    const missing = redisMissing();
    if (missing) notes.push(missing);
    else {
      const redis = await startRedis();
      closers.push({ close: () => redis.stop() });
      const metering = await createMetering({ redisUrl: redis.url, clock });
      return { metering, ledgerKind: 'redis' as const };
    }
  }
  return { metering: await createMetering({ clock }), ledgerKind: 'memory' as const };
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const notes: string[] = [];
  const closers: Closer[] = [];
  let now = Date.now();
  const clock = () => now;
  try {
    const replay = await startReplay(notes, closers);
    const marketplaceOrigin = replay.origin;
    let address = options.coreAddress ?? (options.core === 'stub' ? undefined : await startRealCore(marketplaceOrigin, notes, closers));
    const coreKind = address && !options.coreAddress ? 'real' : options.coreAddress ? 'external' : 'stub';
    if (!address) {
      const stub = await startStubCore({ serviceToken: SERVICE_TOKEN, handlers: options.stubHandlers ?? {} });
      closers.push(stub);
      address = stub.address;
    }
    const { metering, ledgerKind } = await startLedger(options.ledger ?? 'memory', clock, notes, closers);
    closers.push(metering);
    const core = createCoreClient({ address, serviceToken: SERVICE_TOKEN, deadlineMs: options.coreDeadlineMs ?? 10_000, coalesce: options.coalesce ?? true });

    const app = express();
    app.disable('x-powered-by');
    app.set('query parser', false);
    for (const mount of options.mounts) await mount(app, { core, metering });
    // Like `npm run demo`, a stack serving recordings lists what they answer (docs/demo.md).
    const reviewsSession = Boolean(process.env.REVIEWS_SESSION_COOKIE);
    app.use(createDemoCatalogueRouter(buildDemoCatalogue(replay.recordings, ['the contract stack\'s replay server'], { reviewsSession })));
    app.use((_req, res) => void res.status(404).json(errorEnvelope(404, 'not found')));
    // As the deployments do: protocol-level refusals in the error envelope.
    const server: Server = answerHalfClosedRequests(answerClientErrorsWithEnvelope(app.listen(0, '127.0.0.1')));
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push({
      close: () => new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    });
    return {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      metering,
      core,
      coreKind,
      ledgerKind,
      marketplaceOrigin,
      notes,
      advanceClock: (ms) => {
        now += ms;
      },
      close: () => closeAll(closers),
    };
  } catch (err) {
    await closeAll(closers);
    throw err;
  }
}

async function closeAll(closers: Closer[]): Promise<void> {
  for (const closer of closers.reverse()) {
    try {
      await closer.close();
    } catch {
      // keep closing the rest
    }
  }
}
