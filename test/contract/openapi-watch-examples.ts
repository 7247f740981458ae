/**
 * The watch operations' examples, from a real run against the demo: two watches on a fixture product
 * are created, listed a page of one at a time, read, changed, their product's history, events and
 * deliveries read, then deleted. Ids and times differ on every run, so they are replaced by stable
 * ones in first-seen order (normalizeVolatile).
 */
import { API_REGISTRY, type Operation } from '@retail/gateway-shared';
import type { CatalogueEntry } from '../../app/src/demo-catalogue/model.js';
import { callDemo, type ExampleSource, fromRules, type OpenApiExamples, type OperationExample } from './openapi-example-parts.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The inside of an opaque list cursor (base64url of a JSON array of times and ids), if `v` is one. */
function decodedCursor(v: string): unknown[] | undefined {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(v)) return undefined;
  try {
    const inner: unknown = JSON.parse(Buffer.from(v, 'base64url').toString('utf8'));
    return Array.isArray(inner) ? inner : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces run-specific ids and instants (also inside list cursors) by stable ones, the same value always by the same one. */
export function normalizeVolatile<T>(value: T): T {
  const ids = new Map<string, string>();
  const times = new Map<string, string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (UUID.test(v)) return ids.get(v) ?? (ids.set(v, `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, '0')}`), ids.get(v));
      if (TIMESTAMP.test(v)) return times.get(v) ?? (times.set(v, new Date(Date.UTC(2026, 0, 1, 12, 0, times.size)).toISOString()), times.get(v));
      const cursor = decodedCursor(v);
      return cursor ? Buffer.from(JSON.stringify(walk(cursor))).toString('base64url') : v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * A webhook receiver as the document shows one: a documentation domain (RFC 2606). The run itself
 * posts to a closed loopback port, which only a stack that allows private targets accepts.
 */
const DOCUMENTED_RECEIVER = { url: 'https://hooks.example.com/retail-events' };

/**
 * Events and deliveries are numbered rows (their ids and list cursors are the row id: watcher/src/store/cursor.ts),
 * and the first row is 1. The demo has none to show: its recorded pages never change, so no event fires.
 */
const FIRST_ROW_ID = '1';

const opOf = (id: string): Operation => {
  const op = API_REGISTRY.find((o) => o.operationId === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
};

export async function collectWatchExamples(source: ExampleSource, product: CatalogueEntry, lookups: OpenApiExamples): Promise<OpenApiExamples> {
  const api = `${source.baseUrl}/api/retail`;
  const call = async (method: string, path: string, body?: unknown) => {
    const { status, body: answer } = await callDemo(`${api}${path}`, source.key, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (status !== 200) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(answer)}`);
    return answer as { data: Record<string, Record<string, unknown> & { id?: string }> };
  };
  const asin = product.query.asin!;
  const domain = product.query.domain!;
  const title = (lookups.get_RetailProduct?.response as { data: { retailProduct: { title: string } } }).data.retailProduct.title;
  const price = (lookups.get_RetailProduct?.response as { data: { retailProduct: { price: { value: number } } } }).data.retailProduct.price.value;
  const interval = fromRules(opOf('create_RetailWatch').parameters.find((p) => p.name === 'intervalSeconds')!);

  const createBody = { asin, domain, intervalSeconds: interval, label: title };
  const created = await call('POST', '/watches', createBody);
  const id = created.data.retailWatch!.id!;
  // A new watch refreshes its product at once; the examples show it once that has happened.
  for (const deadline = Date.now() + 30_000; !(await call('GET', `/watches/${id}`)).data.retailWatch!.lastRefreshAt;) {
    if (Date.now() > deadline) throw new Error(`watch ${id} was not refreshed within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const read = await call('GET', `/watches/${id}`);
  const history = await call('GET', `/product/history?asin=${asin}&domain=${domain}`);
  const events = await call('GET', `/watches/events?watchId=${id}`);
  const deliveries = await call('GET', `/watches/${id}/deliveries`);
  // A second watch, so that a list of one (the oldest first) has a next page to point at.
  const condition = { type: 'PRICE_AT_OR_BELOW', value: price };
  const second = await call('POST', '/watches', { asin, domain, conditions: [condition] });
  const listed = await call('GET', '/watches?limit=1');
  const updateBody = { label: `${title} (kitchen)`, status: 'PAUSED' };
  const updated = await call('PATCH', `/watches/${id}`, updateBody);
  const deleted = await call('DELETE', `/watches/${id}`);
  await call('DELETE', `/watches/${second.data.retailWatch!.id!}`);

  const cursorOf = (answer: { data: Record<string, Record<string, unknown>> }) => Object.values(answer.data)[0]?.nextCursor;
  const times = (history.data.retailProductHistory as { points?: { at?: string }[] }).points?.map((p) => p.at).filter(Boolean) ?? [];
  const example = (operationId: string, request: Record<string, unknown>, response: unknown, extra: Record<string, unknown> = {}): OperationExample => {
    const op = opOf(operationId);
    const parameters = Object.fromEntries(op.parameters.map((p) => [p.name, request[p.name] ?? extra[p.name] ?? fromRules(p)]));
    return { parameters, request, response };
  };
  const productUrl = source.recordings.find((r) => r.entry.id === product.recording)?.entry.url;
  return normalizeVolatile({
    create_RetailWatch: example('create_RetailWatch', createBody, created, { url: productUrl, conditions: [condition], webhook: DOCUMENTED_RECEIVER, gtin: lookups.get_RetailProduct?.parameters.gtin }),
    list_RetailWatches: example('list_RetailWatches', { limit: 1 }, listed, { cursor: cursorOf(listed) }),
    get_RetailWatch: example('get_RetailWatch', { id }, read),
    update_RetailWatch: example('update_RetailWatch', { id, ...updateBody }, updated, { conditions: [condition], webhook: DOCUMENTED_RECEIVER }),
    delete_RetailWatch: example('delete_RetailWatch', { id }, deleted),
    get_RetailProductHistory: example('get_RetailProductHistory', { asin, domain }, history, { from: times[0] ?? read.data.retailWatch!.createdAt, to: times.at(-1) ?? read.data.retailWatch!.createdAt }),
    list_RetailWatchEvents: example('list_RetailWatchEvents', { watchId: id }, events, { cursor: cursorOf(events) ?? FIRST_ROW_ID }),
    list_RetailWebhookDeliveries: example('list_RetailWebhookDeliveries', { watchId: id }, deliveries, { cursor: cursorOf(deliveries) ?? FIRST_ROW_ID }),
    // No delivery exists to redeliver: the demo's pages never change, so no event fires (docs/conformance.md).
    redeliver_RetailWebhook: example('redeliver_RetailWebhook', { watchId: id, deliveryId: FIRST_ROW_ID }, undefined),
  });
}
