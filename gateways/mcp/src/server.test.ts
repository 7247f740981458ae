/**
 * The pool of MCP Servers (server.ts): a Server serves the next request once its transport closed,
 * and never while a handler it started for an earlier request is still running.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CoreClient } from '@retail/gateway-shared';
import { createMetering } from '@retail/metering';
import { describe, expect, it } from 'vitest';
import { type RequestContext, createServerPool } from './server.js';

/** A request context whose core answers GetProduct when `answer` is called. */
async function slowContext(): Promise<{ ctx: RequestContext; answer: () => void; headers: Record<string, string>[] }> {
  const metering = await createMetering();
  const { accountId } = await metering.admin.createAccount({ units: 10, plan: 'unlimited' });
  const { key } = await metering.admin.createKey(accountId);
  let answer = () => {};
  const core = {
    callOperation: () => new Promise((resolve) => (answer = () => resolve({ response: { $typeName: 'retail.v1.GetProductResponse' }, meta: {} }))),
  } as unknown as CoreClient;
  const headers: Record<string, string>[] = [];
  const ctx: RequestContext = {
    core, meter: metering.meter, headers: { 'api-key': key }, toolsets: ['lookup'], outputSchemas: false,
    setHeaders: (h) => void headers.push(h), authenticateFree: async () => {}, rawArguments: () => undefined, onRefusal: () => {},
  };
  return { ctx, answer: () => answer(), headers };
}

async function connect(server: Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'pool-test', version: '1' });
  await client.connect(clientSide);
  return { client, close: () => serverSide.close() };
}

describe('createServerPool', () => {
  it('lends the same Server again once its transport closed', async () => {
    const pool = createServerPool();
    const { ctx } = await slowContext();
    const first = pool.acquire(ctx);
    const { client, close } = await connect(first.server);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await close();
    first.release();
    expect(pool.acquire(ctx).server).toBe(first.server);
  });

  it('keeps a Server out of the pool while a tool call of its earlier request still runs, and sends that call nothing of the next', async () => {
    const pool = createServerPool();
    const earlier = await slowContext();
    const lease = pool.acquire(earlier.ctx);
    const { client, close } = await connect(lease.server);
    const pending = client.callTool({ name: 'retail_product', arguments: { asin: 'B0TEST0001' } }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the call reached the core
    await close(); // the client went away mid-call
    lease.release();
    const later = await slowContext();
    const next = pool.acquire(later.ctx);
    expect(next.server).not.toBe(lease.server);
    earlier.answer();
    await pending;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(earlier.headers.length).toBe(1); // the finished call's headers went to its own request
    expect(later.headers).toEqual([]);
    next.release();
    // Both Servers are idle now: the one whose call finished is lent again.
    const leases = [pool.acquire(later.ctx), pool.acquire(later.ctx)];
    expect(leases.map((l) => l.server)).toContain(lease.server);
  });
});
