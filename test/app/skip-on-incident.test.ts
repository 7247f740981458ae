/**
 * `skipOnIncident` (issue 23 §3, docs/data-health.md) through `npm start`'s one process against the
 * replay server's product page under layout drift: callers that asked get 503 DATA_INCIDENT with
 * Retry-After, uncharged, on REST, GraphQL, MCP (the SDK's own client) and gRPC, while the others get
 * the data with the incident mark; `MAJOR` callers still get data during a degraded incident; after
 * recovery everyone gets data. No page cache, so every call is a parse.
 */
import { ConnectError, Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { Domain, ErrorDetailSchema, ErrorReason, RetailService, SkipOnIncident } from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { runSdkClient } from '../harness/mcp-sdk-client.js';
import { DRIFT_ASIN as ASIN, type DriftingStack, startDriftingStack } from '../harness/drifting-stack.js';
import type { LayoutDrift } from '../replay/layout-drift.js';

const RETRY_AFTER = '30';
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
const product = (query = '') => running.product(query);
const post = (path: string, body: unknown) => fetch(`${stack.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...key() }, body: JSON.stringify(body) });
const remaining = (res: Response) => Number(res.headers.get('x-units-remaining'));

const readProducts = (times: number) => running.readProducts(times);

async function expectRefusedOnRest(res: Response, state: string): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe(RETRY_AFTER);
  expect(res.headers.get('x-units-charged')).toBe('0');
  const body = (await res.json()) as { success: boolean; errors: { code: number; message: string }[] };
  expect(body.success).toBe(false);
  expect(body.errors[0]!.code).toBe(503);
  expect(body.errors[0]!.message).toMatch(new RegExp(`^US product pages are under a ${state} data incident: .*; refused as skipOnIncident asked, nothing was charged; retry after 30 s$`));
}

const core = () => createClient(RetailService, createGrpcTransport({ baseUrl: `http://${stack.coreAddress}` }));
const serviceHeaders = () => ({ authorization: `Bearer ${stack.serviceToken}` });

describe('skipOnIncident', () => {
  it('is checked like every enum parameter, and takes data while all is healthy', async () => {
    const bad = await product('&skipOnIncident=degraded-ish');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-units-charged')).toBe('0');
    expect(await bad.json()).toEqual({ success: false, errors: [{ code: 400, message: 'skipOnIncident must be one of DEGRADED, MAJOR', path: ['query', 'skipOnIncident'] }] });
    const healthy = await readProducts(20);
    expect(healthy.headers.get('x-data-incident')).toBeNull();
    const skipping = await product('&skipOnIncident=DEGRADED');
    expect(skipping.status).toBe(200);
    expect(skipping.headers.get('x-units-charged')).toBe('1');
  }, 60_000);

  it('during a degraded incident: DEGRADED callers are refused uncharged, MAJOR callers get the data with the mark', async () => {
    drift.current = 'rating-restructured';
    const drifted = await readProducts(20);
    expect(drifted.headers.get('x-data-incident')).toMatch(/^degraded; fields="rating/);

    const major = await product('&skipOnIncident=MAJOR');
    expect(major.status).toBe(200);
    expect(major.headers.get('x-data-incident')).toMatch(/^degraded; /);
    await expectRefusedOnRest(await product('&skipOnIncident=DEGRADED'), 'degraded');
  }, 60_000);

  it('during a major incident: refused with 503 DATA_INCIDENT and Retry-After on REST, GraphQL, MCP and gRPC, nothing charged; others get data', async () => {
    drift.current = 'buybox-redesign';
    await readProducts(20);
    const before = await product();
    expect(before.status).toBe(200);
    expect(before.headers.get('x-data-incident')).toMatch(/^major; fields="price isInStock/);

    await expectRefusedOnRest(await product('&skipOnIncident=MAJOR'), 'major');

    const gql = await post('/api/graphql', { query: `{ retailProduct(asin: "${ASIN}", domain: US, skipOnIncident: MAJOR) { title } }` });
    expect(gql.headers.get('x-units-charged')).toBe('0');
    const gqlBody = (await gql.json()) as { data: { retailProduct: unknown }; errors: { message: string; extensions: { code: number } }[] };
    expect(gqlBody.data.retailProduct).toBeNull();
    expect(gqlBody.errors[0]!.extensions.code).toBe(503);
    expect(gqlBody.errors[0]!.message).toMatch(/^US product pages are under a major data incident/);

    // GraphQL's batch field: the argument applies to every element, as domain does.
    const many = await post('/api/graphql', { query: `{ retailProducts(asins: ["${ASIN}", "${ASIN}"], domain: US, skipOnIncident: MAJOR) { title } }` });
    expect(many.headers.get('x-units-charged')).toBe('0');
    const manyBody = (await many.json()) as { data: { retailProducts: unknown[] }; errors: { extensions: { code: number } }[] };
    expect(manyBody.data.retailProducts).toEqual([null, null]);
    expect(manyBody.errors.map((e) => e.extensions.code)).toEqual([503, 503]);

    const [connected, called] = await runSdkClient(`${stack.url}/api/mcp`, key(), [{ op: 'callTool', name: 'retail_product', arguments: { asin: ASIN, skipOnIncident: 'MAJOR' } }]);
    expect(connected!.ok).toBe(true);
    const tool = (called as { ok: true; result: { isError: boolean; structuredContent: { errors: { code: number; message: string }[] }; _meta: { unitsCharged: number } } }).result;
    expect(tool.isError).toBe(true);
    expect(tool._meta.unitsCharged).toBe(0);
    expect(tool.structuredContent.errors[0]!.code).toBe(503);
    expect(tool.structuredContent.errors[0]!.message).toMatch(/^US product pages are under a major data incident/);

    const failure = await core()
      .getProduct({ asin: ASIN, domain: Domain.US, skipOnIncident: SkipOnIncident.MAJOR }, { headers: serviceHeaders() })
      .then(() => expect.unreachable('the call succeeded'), (e: unknown) => ConnectError.from(e));
    expect(failure.code).toBe(Code.Unavailable);
    expect(failure.findDetails(ErrorDetailSchema)[0]).toMatchObject({ reason: ErrorReason.DATA_INCIDENT, retryAfterSeconds: 30 });

    // A batch item asks for itself: the skipping item is refused, the other answers and alone is charged.
    const batch = await post('/api/retail/batch', { items: [{ operation: 'product', params: { asin: ASIN, skipOnIncident: 'MAJOR' } }, { operation: 'product', params: { asin: ASIN } }] });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('x-units-charged')).toBe('1');
    const items = ((await batch.json()) as { data: { retailBatch: { items: { index: number; status: number }[] } } }).data.retailBatch.items;
    expect(items.map((i) => i.status)).toEqual([503, 200]);

    // Every refusal above was free: the balance moved by the plain read and the batch's one item only.
    const after = await product();
    expect(after.status).toBe(200);
    expect(remaining(after)).toBe(remaining(before) - 2);
  }, 60_000);

  it('after recovery every caller gets data again', async () => {
    drift.current = undefined;
    const recovered = await readProducts(20);
    expect(recovered.headers.get('x-data-incident')).toBeNull();
    const skipping = await product('&skipOnIncident=DEGRADED');
    expect(skipping.status).toBe(200);
    expect(skipping.headers.get('x-units-charged')).toBe('1');
  }, 60_000);
});
