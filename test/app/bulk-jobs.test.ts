/**
 * Bulk jobs through the registry-derived surfaces of `npm start` (one process: PGlite, the in-memory
 * job system, the memory ledger, the core reading the replay server): REST's JSON routes, GraphQL's
 * fields and MCP's tools of the JobService's unary RPCs, with the printed key. Items are batch items
 * (`{operation, params}`) on all three, a malformed one that item's 400 result; results are batch
 * entries on all three. test/app/jobs-rest.test.ts covers the REST routes on Redis and
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
      query: 'mutation($items: [RetailJobItemInput!]!) { createRetailJob(items: $items) { id status total done failed } }',
      variables: { items: [{ operation: 'product', params: { asin: 'B0FXTUS001', domain: 'US' } }, { operation: 'nosuch', params: { asin: 'B0FXTUS001' } }] },
    }));
    const { id } = gql.data.createRetailJob;
    // The malformed item is counted at once, as on REST: done and failed before anything ran.
    expect(gql.data.createRetailJob).toMatchObject({ status: 'QUEUED', total: 2, done: 1, failed: 1 });
    await ended(id);
    const read = await json<{ data: { retailJob: WireJob; retailJobs: { jobs: Array<{ id: string }> } } }>(await call('POST', '/api/graphql', {
      query: `{ retailJob(id: "${id}") { status done unitsCharged } retailJobs(limit: 5) { jobs { id } } }`,
    }));
    expect(read.data.retailJob).toEqual({ status: 'DONE', done: 2, unitsCharged: 1 });
    expect(read.data.retailJobs.jobs.map((j) => j.id)).toContain(id);
    const results = await json<{ data: { retailJobResults: { results: Array<{ index: number; status: number; data: { retailProduct: { asin: string } } | null; errors: Array<{ code: number; message: string }> | null }> } } }>(await call('POST', '/api/graphql', {
      query: `{ retailJobResults(id: "${id}") { results { index status data { retailProduct { asin title } } errors { code message } } } }`,
    }));
    expect(results.data.retailJobResults.results).toEqual([
      { index: 0, status: 200, data: { retailProduct: { asin: 'B0FXTUS001', title: expect.any(String) } }, errors: null },
      { index: 1, status: 400, data: null, errors: [{ code: 400, message: expect.stringMatching(/^operation must be one of product, /) }] },
    ]);

    // A literal item, params written inline: the same item form.
    const literal = await json<{ data: { createRetailJob: WireJob } }>(await call('POST', '/api/graphql', {
      query: 'mutation { createRetailJob(items: [{ operation: "product", params: { asin: "bad" } }], label: "inline") { total done failed } }',
    }));
    expect(literal.data.createRetailJob).toEqual({ total: 1, done: 1, failed: 1 });
    // No item at all is the call's refusal, before any work, in the envelope.
    const empty = await json<{ errors: Array<{ code: number; message: string; path: string[] }> }>(await call('POST', '/api/graphql', {
      query: 'mutation { createRetailJob(items: []) { id } }',
    }));
    expect(empty.errors).toEqual([{ code: 400, message: 'items must hold between 1 and 100000 entries: a job has 1 to 100,000 items', path: ['items'] }]);

    const created = await json<{ result: { structuredContent: { data: { retailJob: WireJob } } } }>(await call('POST', '/api/mcp', {
      jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'retail_job_create', arguments: { items: [{ operation: 'product', params: { asin: 'B0FXTUS001' } }, { operation: 'product', params: { asin: 7 } }] } },
    }));
    expect(created.result.structuredContent.data.retailJob).toMatchObject({ status: 'QUEUED', total: 2, done: 1, failed: 1 });
    const mcpResults = await json<{ result: { structuredContent: { data: { retailJobResults: { results: Array<{ index: number; status: number }> } } } } }>(await call('POST', '/api/mcp', {
      jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'retail_job_results', arguments: { id: created.result.structuredContent.data.retailJob.id } },
    }));
    // Its refused item has its result at once (the other may still be running).
    expect(mcpResults.result.structuredContent.data.retailJobResults.results.find((r) => r.index === 1)).toMatchObject({ status: 400 });

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
