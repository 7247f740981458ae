/**
 * Bulk jobs through the registry-derived surfaces of `npm start` (one process: PGlite, the in-memory
 * job system, the memory ledger, the core reading the replay server): REST's JSON routes, GraphQL's
 * fields and MCP's tools of the JobService's unary RPCs, with the printed key. REST items are batch
 * items (`{operation, params}`), GraphQL's and MCP's BatchItems (`{product: {...}}`); results are
 * batch entries on all three. test/app/jobs-rest.test.ts covers the REST routes on Redis and
 * PostgreSQL (NDJSON and CSV bodies, downloads, Server-Sent Events).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

let running: OneProcess;
let stack: RunningStack;
let key: Record<string, string>;

beforeAll(async () => {
  running = await startOneProcess({ DEV_UNITS: '10' });
  stack = running.stack;
  key = { 'API-KEY': stack.devKey };
}, 120_000);
afterAll(async () => {
  await running?.stop();
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${stack.url}${path}`, {
    method,
    headers: { ...key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
const json = async <T>(response: Response) => (await response.json()) as T;

interface WireJob { id: string; status: string; total: number; done: number; failed: number; unitsCharged: number; finishedAt: string | null }

async function ended(id: string): Promise<WireJob> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await json<{ data: { retailJob: WireJob } }>(await call('GET', `/api/retail/jobs/${id}`))).data.retailJob;
    if (job.status === 'DONE' || Date.now() > deadline) return job;
    // The development key is on the free plan (5 requests a second): poll gently.
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

describe('bulk jobs on npm start', () => {
  it('REST: creates a job for free, runs it in the background, charges its one success, and pages its results', async () => {
    const created = await call('POST', '/api/retail/jobs', { items: [{ operation: 'product', params: { asin: 'B0FXTUS001', domain: 'US' } }, { operation: 'product', params: { asin: 'B0NOTHERE1' } }], label: 'two' });
    expect(created.status).toBe(202);
    expect(created.headers.get('x-units-charged')).toBe('0');
    const { id, total, status } = (await json<{ data: { retailJob: WireJob } }>(created)).data.retailJob;
    expect([total, status]).toEqual([2, 'QUEUED']);
    expect(await ended(id)).toMatchObject({ status: 'DONE', total: 2, done: 2, failed: 1, unitsCharged: 1 });
    const page = await json<{ data: { retailJobResults: { results: Array<{ index: number; status: number; data?: { retailProduct: { asin: string } } }>; nextCursor: string | null } } }>(
      await call('GET', `/api/retail/jobs/${id}/items?limit=10`));
    expect(page.data.retailJobResults.results.map((r) => [r.index, r.status, r.data?.retailProduct.asin])).toEqual([[0, 200, 'B0FXTUS001'], [1, 404, undefined]]);
    expect(page.data.retailJobResults.nextCursor).toBeNull();
    const account = await json<{ data: { balance: number } }>(await call('GET', '/api/account'));
    expect(account.data.balance).toBe(9);
  });

  it('GraphQL and MCP: create, read and cancel through the derived mutation, fields and tools', async () => {
    const gql = await json<{ data: { createRetailJob: WireJob } }>(await call('POST', '/api/graphql', {
      query: 'mutation { createRetailJob(items: [{ product: { asin: "B0FXTUS001", domain: US } }]) { id status total } }',
    }));
    const { id } = gql.data.createRetailJob;
    expect(gql.data.createRetailJob).toMatchObject({ status: 'QUEUED', total: 1 });
    await ended(id);
    const read = await json<{ data: { retailJob: WireJob; retailJobs: { jobs: Array<{ id: string }> } } }>(await call('POST', '/api/graphql', {
      query: `{ retailJob(id: "${id}") { status done unitsCharged } retailJobs(limit: 5) { jobs { id } } }`,
    }));
    expect(read.data.retailJob).toEqual({ status: 'DONE', done: 1, unitsCharged: 1 });
    expect(read.data.retailJobs.jobs.map((j) => j.id)).toContain(id);
    const results = await json<{ data: { retailJobResults: { results: Array<{ index: number; status: number; data: { retailProduct: { asin: string } } | null; errors: null }> } } }>(await call('POST', '/api/graphql', {
      query: `{ retailJobResults(id: "${id}") { results { index status data { retailProduct { asin title } } errors { code } } } }`,
    }));
    expect(results.data.retailJobResults.results).toEqual([{ index: 0, status: 200, data: { retailProduct: { asin: 'B0FXTUS001', title: expect.any(String) } }, errors: null }]);

    const mcp = await json<{ result: { structuredContent: { data: { retailJob: WireJob } } } }>(await call('POST', '/api/mcp', {
      jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_job_get', arguments: { id } },
    }));
    expect(mcp.result.structuredContent.data.retailJob).toMatchObject({ id, status: 'DONE' });
    const cancelled = await call('DELETE', `/api/retail/jobs/${id}`);
    expect((await json<{ data: { retailJob: WireJob } }>(cancelled)).data.retailJob.status).toBe('DONE');
  });

  it('another key\'s account gets 404 for the job', async () => {
    const { id } = (await json<{ data: { retailJob: WireJob } }>(await call('POST', '/api/retail/jobs', { items: [{ operation: 'product', params: { asin: 'B0FXTUS001' } }] }))).data.retailJob;
    const other = await fetch(`${stack.url}/api/retail/jobs/${id}`, { headers: { 'API-KEY': 'rk_aaaaaaaaaaaa_00000000000000000000000000000000AAAAAA' } });
    expect(other.status).toBe(401);
    const missing = await call('GET', '/api/retail/jobs/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });
});
