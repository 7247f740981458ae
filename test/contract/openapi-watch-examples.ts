/**
 * The watch operations' examples, from a real run against the demo: a watch on a fixture product with
 * a condition that holds and a webhook to a closed loopback port is created; once its first delivery
 * attempt has failed it is read with its product's history, events and deliveries, the delivery is
 * queued again, a second watch gives the list a next page, the first is changed, then both are
 * deleted. Ids, times and secrets differ on every run, so they are replaced by stable ones in
 * first-seen order (normalizeVolatile).
 */
import { API_REGISTRY, type Operation } from '@retail/gateway-shared';
import type { CatalogueEntry } from '../../app/src/demo-catalogue/model.js';
import { callDemo, type ExampleSource, fromRules, type OpenApiExamples, type OperationExample, until } from './openapi-example-parts.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A webhook's signing secret, shown once when it is made. */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]+=*$/;
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
      if (WEBHOOK_SECRET.test(v)) return `whsec_${Buffer.alloc(32).toString('base64')}`;
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
 * The webhook receiver of the examples: a port on this machine where nothing listens (above the
 * ephemeral range, so no other program is handed it), so every delivery attempt fails at once and
 * nothing leaves the machine. A stack accepts it with WEBHOOK_ALLOW_PRIVATE_TARGETS=true.
 */
export const EXAMPLE_RECEIVER = { url: 'https://127.0.0.1:65535/retail-events' };

export const opOf = (id: string): Operation => {
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

  // Every field with a rule is in the body (the recorded URL as the lookup), so a client, or a
  // fuzzer taking one field away, starts from a request that works. The condition holds on the first
  // refresh (the price at or below itself), so there is an event and a delivery to show.
  const condition = { type: 'PRICE_AT_OR_BELOW', value: price };
  const productUrl = source.recordings.find((r) => r.entry.id === product.recording)?.entry.url;
  const createBody = { url: productUrl, domain, intervalSeconds: interval, label: title, conditions: [condition], webhook: EXAMPLE_RECEIVER };
  const created = await call('POST', '/watches', createBody);
  const id = created.data.retailWatch!.id!;
  const deliveriesPath = `/watches/${id}/deliveries`;
  // A new watch refreshes its product at once; the examples show it once its first delivery attempt failed.
  await until(`a failed first delivery of watch ${id}`, async () => {
    const answer = await call('GET', deliveriesPath);
    const first = (answer.data.retailWebhookDeliveries as { deliveries?: { status?: string }[] }).deliveries?.[0];
    return first?.status === 'FAILED' ? answer : undefined;
  });
  const read = await call('GET', `/watches/${id}`);
  const history = await call('GET', `/product/history?asin=${asin}&domain=${domain}`);
  const events = await call('GET', `/watches/events?watchId=${id}`);
  const deliveries = await call('GET', deliveriesPath);
  const deliveryId = (deliveries.data.retailWebhookDeliveries as { deliveries: { id: string }[] }).deliveries[0]!.id;
  const redelivered = await call('POST', `${deliveriesPath}/${deliveryId}/redeliver`);
  const tested = await call('POST', `/watches/${id}/test-event`);
  // A second watch, so that a list of one (the oldest first) has a next page to point at.
  const second = await call('POST', '/watches', { asin, domain });
  const listed = await call('GET', '/watches?limit=1');
  const updateBody = { label: `${title} (kitchen)`, status: 'PAUSED', conditions: [condition], replaceConditions: true, webhook: EXAMPLE_RECEIVER };
  const updated = await call('PATCH', `/watches/${id}`, updateBody);
  const deleted = await call('DELETE', `/watches/${id}`);
  await call('DELETE', `/watches/${second.data.retailWatch!.id!}`);

  const cursorOf = (answer: { data: Record<string, Record<string, unknown>> }) => Object.values(answer.data)[0]?.nextCursor;
  // Events and deliveries are numbered rows, and their list cursor is a row id (watcher/src/store/cursor.ts).
  const firstId = (answer: { data: Record<string, Record<string, unknown>> }) =>
    Object.values(Object.values(answer.data)[0] ?? {}).flatMap((v) => (Array.isArray(v) ? [(v[0] as { id?: string } | undefined)?.id] : []))[0];
  const times = (history.data.retailProductHistory as { points?: { at?: string }[] }).points?.map((p) => p.at).filter(Boolean) ?? [];
  const example = (operationId: string, request: Record<string, unknown>, response: unknown, extra: Record<string, unknown> = {}): OperationExample => {
    const op = opOf(operationId);
    const parameters = Object.fromEntries(op.parameters.map((p) => [p.name, request[p.name] ?? extra[p.name] ?? fromRules(p)]));
    return { parameters, request, response };
  };
  return {
    create_RetailWatch: example('create_RetailWatch', createBody, created, { asin, gtin: lookups.get_RetailProduct?.parameters.gtin }),
    list_RetailWatches: example('list_RetailWatches', { limit: 1 }, listed, { cursor: cursorOf(listed) }),
    get_RetailWatch: example('get_RetailWatch', { id }, read),
    update_RetailWatch: example('update_RetailWatch', { id, ...updateBody }, updated, { removeWebhook: false }),
    delete_RetailWatch: example('delete_RetailWatch', { id }, deleted),
    get_RetailProductHistory: example('get_RetailProductHistory', { asin, domain }, history, { from: times[0] ?? read.data.retailWatch!.createdAt, to: times.at(-1) ?? read.data.retailWatch!.createdAt }),
    list_RetailWatchEvents: example('list_RetailWatchEvents', { watchId: id }, events, { cursor: firstId(events) }),
    list_RetailWebhookDeliveries: example('list_RetailWebhookDeliveries', { watchId: id }, deliveries, { cursor: firstId(deliveries) }),
    redeliver_RetailWebhook: example('redeliver_RetailWebhook', { watchId: id, deliveryId }, redelivered),
    sendTest_RetailWebhook: example('sendTest_RetailWebhook', { watchId: id }, tested),
  };
}
