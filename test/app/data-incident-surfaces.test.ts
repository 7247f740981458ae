/**
 * What clients see of a data incident (issue 23, docs/data-health.md), through `npm start`'s one
 * process against the replay server's product page under layout drift: the public `GET /api/status`,
 * `X-Data-Incident` on REST, `extensions.dataIncident` on GraphQL, `_meta.dataIncident` on MCP and
 * the `x-data-incident` trailer on the core's gRPC answer. No page cache, so every call is a parse.
 */
import { Metadata, credentials, makeGenericClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { create } from '@bufbuild/protobuf';
import { Domain, GetProductRequestSchema, RetailService } from '@retail/contract';
import { grpcServiceDefinition } from '@retail/contract/grpc-service-definition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { DRIFT_ASIN as ASIN, type DriftingStack, startDriftingStack } from '../harness/drifting-stack.js';
import type { LayoutDrift } from '../replay/layout-drift.js';

const drift: { current: LayoutDrift | undefined } = { current: undefined };

let running: DriftingStack;
let stack: RunningStack;

beforeAll(async () => {
  running = await startDriftingStack(drift);
  stack = running.stack;
}, 60_000);
afterAll(async () => {
  await running?.stop();
});

const key = () => ({ 'API-KEY': stack.devKey });
const post = (path: string, body: unknown) =>
  fetch(`${stack.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...key() }, body: JSON.stringify(body) });

const readProducts = (times: number) => running.readProducts(times);

/** GetProduct straight to the core over gRPC; the trailer it ends with. */
function grpcTrailer(): Promise<string[]> {
  const Client = makeGenericClientConstructor(grpcServiceDefinition(RetailService), 'RetailService');
  const client = new Client(stack.coreAddress, credentials.createInsecure()) as unknown as Record<string, (req: unknown, md: Metadata, cb: (e: ServiceError | null) => void) => { on(ev: 'status', f: (s: { metadata: Metadata }) => void): void }>;
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${stack.serviceToken}`);
  return new Promise((resolve, reject) => {
    let trailer: string[] = [];
    const call = client.GetProduct!(create(GetProductRequestSchema, { asin: ASIN, domain: Domain.US }), metadata, (error) => (error ? reject(error) : setImmediate(() => resolve(trailer))));
    call.on('status', (status) => void (trailer = status.metadata.get('x-data-incident').map(String)));
  });
}

describe('a data incident as clients see it', () => {
  it('GET /api/status is public and unmetered, and healthy answers carry no incident', async () => {
    const healthy = await readProducts(20);
    expect(healthy.headers.get('x-data-incident')).toBeNull();
    const status = await fetch(`${stack.url}/api/status`);
    expect(status.status).toBe(200);
    expect(status.headers.get('x-units-charged')).toBeNull();
    expect(await status.json()).toEqual({ data: { retailStatus: { marketplaces: [{ domain: 'US', kinds: [{ kind: 'product', state: 'healthy', since: null, fields: [] }] }] } } });
    expect(await grpcTrailer()).toEqual([]);
  }, 60_000);

  it('under a buy-box redesign every interface says major, with the fields, and /api/status lists it since it opened', async () => {
    drift.current = 'buybox-redesign';
    const before = Date.now();
    const drifted = await readProducts(20);
    expect(drifted.headers.get('x-data-incident')).toBe('major; fields="price isInStock"');
    expect(drifted.headers.get('x-units-charged')).toBe('1');

    const status = (await (await fetch(`${stack.url}/api/status`)).json()) as { data: { retailStatus: { marketplaces: { domain: string; kinds: { kind: string; state: string; since: string; fields: string[] }[] }[] } } };
    const [kind] = status.data.retailStatus.marketplaces[0]!.kinds;
    expect(kind).toMatchObject({ kind: 'product', state: 'major', fields: ['price', 'isInStock'] });
    expect(Date.parse(kind!.since)).toBeGreaterThanOrEqual(before - 1000);
    expect(kind!.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const gql = (await (await post('/api/graphql', { query: `{ retailProduct(asin: "${ASIN}", domain: US) { title } }` })).json()) as { extensions: { dataIncident?: unknown } };
    expect(gql.extensions.dataIncident).toEqual({ state: 'major', kind: 'product', fields: ['price', 'isInStock'] });

    const mcp = await post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: ASIN } } });
    const text = await mcp.text();
    const message = JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]!) as { result: { _meta: { dataIncident?: unknown } } };
    expect(message.result._meta.dataIncident).toEqual({ state: 'major', kind: 'product', fields: ['price', 'isInStock'] });

    expect(await grpcTrailer()).toEqual(['major; fields="price isInStock"']);
  }, 60_000);

  it('after recovery the answers carry no incident again', async () => {
    drift.current = undefined;
    const recovered = await readProducts(20);
    expect(recovered.headers.get('x-data-incident')).toBeNull();
    const status = (await (await fetch(`${stack.url}/api/status`)).json()) as { data: { retailStatus: { marketplaces: { kinds: { state: string }[] }[] } } };
    expect(status.data.retailStatus.marketplaces[0]!.kinds[0]!.state).toBe('healthy');
  }, 60_000);

  it('the status page (public) shows the state now and the incident of the last 30 days, as the watcher kept it', async () => {
    // The watcher reads the core's incident log every 5 s.
    let html = '';
    const deadline = Date.now() + 20_000;
    while (!(html.includes('healthy → major') && html.includes('major → healthy'))) {
      if (Date.now() > deadline) throw new Error(`the status page never showed the incident: ${html}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      const page = await fetch(`${stack.url}/status`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      html = await page.text();
    }
    expect(html).toContain('Every marketplace and page kind read so far is healthy.');
    expect(html).toMatch(/<td>US<\/td><td>product<\/td><td class="state state-major">|<td>US<\/td><td>product<\/td><td class="state state-healthy">healthy/);
    expect(html).toContain('<code>price</code> <code>isInStock</code>');
  }, 60_000);
});
