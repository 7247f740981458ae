/**
 * A WatchApi that calls a server speaking the REST watch contract (the stand-in of
 * watch-service-double.ts today), passing the account in `x-retail-account`. Refusals come back as
 * ConsoleErrors with the envelope's status, message and path, as the real implementation must give.
 */
import { ConsoleError, type WatchApi, type WireData } from '@retail/console';

type Query = Readonly<Record<string, string | number | undefined>>;

export function createRestWatchApi(origin: string): WatchApi {
  const call = async (accountId: string, method: string, path: string, init: { query?: Query; body?: unknown } = {}): Promise<WireData> => {
    const url = new URL(`/api/retail/${path}`, origin);
    for (const [name, value] of Object.entries(init.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const response = await fetch(url, {
      method,
      headers: { 'x-retail-account': accountId, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const payload = (await response.json()) as { data?: WireData; errors?: { message: string; path?: string[] }[] };
    if (!response.ok) {
      const [first] = payload.errors ?? [];
      throw new ConsoleError(response.status, first?.message ?? `watch service answered ${response.status}`, first?.path ? { path: first.path } : {});
    }
    return payload.data!;
  };
  const id = encodeURIComponent;
  return {
    createWatch: (account, body) => call(account, 'POST', 'watches', { body }),
    listWatches: (account, query) => call(account, 'GET', 'watches', { query: { ...query } }),
    getWatch: (account, watchId) => call(account, 'GET', `watches/${id(watchId)}`),
    updateWatch: (account, watchId, body) => call(account, 'PATCH', `watches/${id(watchId)}`, { body }),
    deleteWatch: (account, watchId) => call(account, 'DELETE', `watches/${id(watchId)}`),
    getProductHistory: (account, query) => call(account, 'GET', 'product/history', { query: { ...query } }),
    listWatchEvents: (account, query) => call(account, 'GET', 'watches/events', { query: { ...query } }),
    listWebhookDeliveries: (account, watchId, query) => call(account, 'GET', `watches/${id(watchId)}/deliveries`, { query: { ...query } }),
    redeliverWebhook: (account, watchId, deliveryId) => call(account, 'POST', `watches/${id(watchId)}/deliveries/${id(deliveryId)}/redeliver`),
  };
}
