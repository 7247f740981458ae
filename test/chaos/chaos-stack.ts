/**
 * The `npm start` composition (core, three gateways, one router) in this process, with a Redis
 * ledger and the core pointed at the fault proxy in front of the replay server (project fixtures).
 * The page cache is off and upstream retries are off, so every call meets the marketplace once and
 * every planned fault reaches a call. A second metering instance on the same Redis is the test's
 * window on the ledger (accounts, balances, holds).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { loadAppConfig } from '../../app/src/config.js';
import { type RunningStack, startStack } from '../../app/src/stack.js';
import { type ReplayServer, createReplayServer } from '../replay/server.js';
import { type FaultPlan, type FaultProxy, createFaultProxy } from './fault-proxy.js';

/** The gateways' deadline for a core call; a `slow` fault waits past it. */
export const CHAOS_CORE_DEADLINE_MS = 1_000;

export interface ChaosStack {
  readonly url: string;
  readonly coreAddress: string;
  readonly serviceToken: string;
  readonly proxy: FaultProxy;
  readonly ledger: MeteringInstance;
  stop(): Promise<void>;
}

export const CHAOS_CORE_ENV = {
  LOG_LEVEL: 'silent',
  CACHE_MAX_BYTES: '0',
  UPSTREAM_RETRY_ATTEMPTS: '1',
  PARSE_WORKERS: '0',
} as const;

/** The replay server over the fixture pages and the fault proxy in front of it; `slow` waits past CHAOS_CORE_DEADLINE_MS unless told. */
export async function startReplayAndProxy(plan?: FaultPlan, slowMs = CHAOS_CORE_DEADLINE_MS + 1_000): Promise<{ replay: ReplayServer; proxy: FaultProxy }> {
  const replay = await createReplayServer({ corpusDirs: [resolve(import.meta.dirname, '../fixtures/pages')], port: 0, host: '127.0.0.1' });
  const proxy = await createFaultProxy({ replayOrigin: replay.origin, plan, slowMs });
  return { replay, proxy };
}

export async function startChaosStack(options: {
  ledgerUrl: string;
  plan?: FaultPlan;
  /** CORE_DEADLINE_MS of the gateways; tests without `slow` faults keep the production default so a busy machine cannot turn into 504s. */
  coreDeadlineMs?: number;
  /** LEDGER_HOLD_TTL_MS (must exceed the deadline): short when a test waits for orphaned holds to come back. */
  holdTtlMs?: number;
}): Promise<ChaosStack> {
  const { replay, proxy } = await startReplayAndProxy(options.plan);
  const serviceToken = 'chaos-tier-service-token';
  const env = {
    ...CHAOS_CORE_ENV,
    PORT: '0',
    GRPC_PORT: '0',
    SERVICE_TOKEN: serviceToken,
    MARKETPLACE_ORIGIN: proxy.origin,
    LEDGER_REDIS_URL: options.ledgerUrl,
    CORE_DEADLINE_MS: String(options.coreDeadlineMs ?? CHAOS_CORE_DEADLINE_MS),
    ...(options.holdTtlMs ? { LEDGER_HOLD_TTL_MS: String(options.holdTtlMs) } : {}),
    DEV_UNITS: '0',
    // The watcher's PGlite directory is one process's: each stack gets its own.
    WATCHER_DATA_DIR: mkdtempSync(join(tmpdir(), 'chaos-watcher-')),
    // A fixed secret keeps the console from warning about a random one on every start.
    CONSOLE_SESSION_SECRET: 'chaos-tier-console-secret-0123456789abcdef',
  };
  let stack: RunningStack | undefined;
  let ledger: MeteringInstance | undefined;
  try {
    stack = await startStack({ ...loadAppConfig(env), marketplaceOrigin: proxy.origin }, env);
    ledger = await createMetering({ redisUrl: options.ledgerUrl });
  } catch (error) {
    await stack?.stop();
    await proxy.close();
    await replay.close();
    throw error;
  }
  const running = stack;
  const window = ledger;
  return {
    url: running.url,
    coreAddress: running.coreAddress,
    serviceToken,
    proxy,
    ledger: window,
    async stop() {
      await window.close().catch(() => undefined);
      await running.stop().catch(() => undefined);
      await proxy.close();
      await replay.close();
    },
  };
}
