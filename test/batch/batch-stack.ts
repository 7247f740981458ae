/**
 * What the batch tests run against, all real but the marketplace: the replay server over the
 * project's fixture pages (it counts every upstream request and can hold one back), the core over
 * gRPC with its page cache and retries off (so every upstream fetch shows, and identical items
 * fetched once prove the batch's own de-duplication), a real redis-server ledger, and the REST,
 * GraphQL and MCP gateways on one express app, calling the core through the gateways' core client.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import express from 'express';
import { createGraphqlGateway } from '@retail/graphql';
import { createMcpGateway } from '@retail/mcp';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { createRestGateway } from '@retail/rest';
import { createCoreClient } from '@retail/gateway-shared';
import { type StartedCore, startCore } from '../harness/core.js';
import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';
import { type ReplayRequest, type ReplayServer, createReplayServer } from '../replay/server.js';

export interface BatchStack {
  readonly url: string;
  readonly core: StartedCore;
  readonly replay: ReplayServer;
  /** The ledger on the real redis-server, the same one the gateways charge. */
  readonly metering: MeteringInstance;
  /** Holds the marketplace page at `path` until the returned release is called. */
  holdPage(path: string): () => void;
  /** Upstream requests the replay server saw for `path` (e.g. `/dp/B0FXTDE001`). */
  fetchesOf(path: string): number;
  account(units: number, plan?: string): Promise<{ accountId: string; key: string }>;
  balance(accountId: string): Promise<number>;
  close(): Promise<void>;
}

export const CORE_ENV = { CACHE_MAX_BYTES: '0', UPSTREAM_RETRY_ATTEMPTS: '1', PARSE_WORKERS: '0', BATCH_CONCURRENCY: '4' };

export async function startBatchStack(): Promise<BatchStack> {
  const held = new Map<string, Promise<void>>();
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const step of closers.reverse()) await step().catch(() => undefined);
  };
  try {
    const redis: RedisServer = await startRedis();
    closers.push(() => redis.stop());
    const replay = await createReplayServer({
      corpusDirs: [resolve(import.meta.dirname, '../fixtures/pages')],
      hold: (request: ReplayRequest) => held.get(request.path),
    });
    closers.push(() => replay.close());
    const core = await startCore({ marketplaceOrigin: replay.origin, env: CORE_ENV });
    closers.push(() => core.stop());
    const metering = await createMetering({ redisUrl: redis.url });
    closers.push(() => metering.close());
    const client = createCoreClient({ address: core.address, serviceToken: core.token });
    const deps = { core: client, metering };
    const app = express();
    app.set('query parser', false);
    app.use(createRestGateway(deps));
    app.use(await createGraphqlGateway(deps));
    app.use(createMcpGateway(deps));
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((ready) => server.once('listening', ready));
    closers.push(() => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      core,
      replay,
      metering,
      holdPage: (path) => {
        let release = () => {};
        held.set(path, new Promise<void>((done) => (release = done)));
        return () => {
          held.delete(path);
          release();
        };
      },
      fetchesOf: (path) => replay.requests.filter((r) => r.path === path).length,
      account: async (units, plan) => {
        const { accountId } = await metering.admin.createAccount({ units, ...(plan ? { plan } : {}) });
        return { accountId, key: (await metering.admin.createKey(accountId)).key };
      },
      balance: async (accountId) => (await metering.admin.summary(accountId)).balance,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * One stack for a test file, started before its tests and closed after them; `missing` says why the
 * file skips (no redis-server), printed once.
 */
export function useBatchStack(): { readonly missing: string | null; stack(): BatchStack } {
  const missing = redisMissing();
  if (missing) console.warn(`[skip] ${missing}`);
  let stack: BatchStack | undefined;
  beforeAll(async () => {
    if (!missing) stack = await startBatchStack();
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });
  return {
    missing,
    stack: () => {
      if (!stack) throw new Error('the batch stack is not running');
      return stack;
    },
  };
}
