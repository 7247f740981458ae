/**
 * `npm start` as a user meets it: one process, one address, the development key it prints, and the
 * three interfaces answering the same product from the replay server, each charging one unit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

let running: OneProcess;
let stack: RunningStack;

beforeAll(async () => {
  running = await startOneProcess({ DEV_UNITS: '5' });
  stack = running.stack;
});
afterAll(async () => {
  await running?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.url}${path}`, { headers });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

describe('npm start (one process)', () => {
  it('answers health and readiness, whose body reports the marketplace as the start-up probe found it', async () => {
    expect((await get('/healthz')).status).toBe(200);
    // The start banner's line: the probe's answer (the replay server's /robots.txt is a 404, an answer all the same).
    expect(await stack.marketplaceLine()).toMatch(/^marketplace via http:\/\/127\.0\.0\.1:\d+: reachable \(www\.amazon\.com: answered, start-up probe \d+ s ago\)$/);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      marketplace: { state: 'reachable', hosts: [{ host: 'www.amazon.com', state: 'reachable', lastOutcome: 'not-found', by: 'probe', circuit: 'closed' }] },
    });
  });

  it('serves the same product on REST, GraphQL and MCP with the printed key, one unit each', async () => {
    const key = { 'API-KEY': stack.devKey };
    const rest = await get('/api/retail/product?asin=B0FXTUS001', key);
    expect(rest.status).toBe(200);
    const restBody = (await rest.json()) as { data: { retailProduct: { title: string } } };
    const title = restBody.data.retailProduct.title;
    expect(title.length).toBeGreaterThan(0);
    expect(rest.headers.get('x-units-charged')).toBe('1');
    // No ETag, so no charged answer is ever turned into a 304 for If-None-Match (as in the deployments).
    expect(rest.headers.get('etag')).toBeNull();

    const gql = await post('/api/graphql', { query: '{ retailProduct(asin: "B0FXTUS001", domain: US) { title } }' }, key);
    expect(gql.status).toBe(200);
    expect(((await gql.json()) as { data: { retailProduct: { title: string } } }).data.retailProduct.title).toBe(title);

    const mcp = await post(
      '/api/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: 'B0FXTUS001' } } },
      key,
    );
    expect(mcp.status).toBe(200);
    const mcpBody = (await mcp.json()) as { result: { structuredContent: { data: { retailProduct: { title: string } } } } };
    expect(mcpBody.result.structuredContent.data.retailProduct.title).toBe(title);

    const account = (await (await get('/api/account', key)).json()) as { data: { balance: number } };
    expect(account.data.balance).toBe(2);
  });

  it('routes the OpenAPI document and the console like the Ingress', async () => {
    const doc = (await (await get('/api/openapi.json')).json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
    const consolePage = await get('/console/');
    expect(consolePage.status).toBe(200);
    expect(consolePage.headers.get('content-type')).toContain('text/html');
  });

  it('says at /demo that it is not in demo mode, so it has no catalogue', async () => {
    const res = await get('/demo/catalogue.json');
    expect(res.status).toBe(404);
    expect(JSON.stringify(await res.json())).toMatch(/not in demo mode/);
  });

  it('refuses a call without a key and charges nothing for it', async () => {
    const res = await get('/api/retail/product?asin=B0FXTUS001');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, errors: [{ code: 401, message: 'API key is invalid or missing' }] });
  });
});
