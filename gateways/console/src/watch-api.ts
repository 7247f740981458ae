/**
 * What the console needs from the watch service (retail.v1.WatchService, proto/retail/v1/watch.proto)
 * to serve the Watches page for the signed-in account. The console has no API key of the user's, so
 * it cannot call the REST API itself: its server calls the service for the session's account, and
 * the composition passes the implementation in: createClientWatchApi (client-watch-api.ts) over the
 * gateways' gRPC client, which sends the service token and `x-retail-account`.
 *
 * Inputs are the REST bodies and query values, outputs the REST `data` objects (wire JSON: enum
 * names without prefix, RFC 3339 times, null for absent), so the page reads exactly what a REST
 * client reads (docs/watches.md). The console forwards them as they are.
 */

/** A wire object as the REST API renders it; the console does not look inside. */
export type WireData = Record<string, unknown>;

export interface WatchCondition {
  readonly type: string;
  readonly value?: number;
}

/** `POST /api/retail/watches` body: one of asin, url, gtin. */
export interface CreateWatchBody {
  readonly domain?: string;
  readonly asin?: string;
  readonly url?: string;
  readonly gtin?: string;
  readonly intervalSeconds?: number;
  readonly conditions?: readonly WatchCondition[];
  readonly webhook?: { readonly url: string };
  readonly label?: string;
}

/** `PATCH /api/retail/watches/{id}` body: absent fields stay as they are. */
export interface UpdateWatchBody {
  readonly label?: string;
  readonly intervalSeconds?: number;
  readonly conditions?: readonly WatchCondition[];
  readonly webhook?: { readonly url: string };
  readonly removeWebhook?: boolean;
  readonly status?: 'ACTIVE' | 'PAUSED';
}

export interface PageQuery {
  readonly limit?: number;
  readonly cursor?: string;
}

export interface HistoryQuery {
  readonly asin: string;
  readonly domain?: string;
  readonly from?: string;
  readonly to?: string;
  readonly maxPoints?: number;
}

export interface EventsQuery extends PageQuery {
  readonly watchId?: string;
}

/**
 * Every method acts for `accountId` only: another account's watch is a 404, never a 403. Each
 * resolves to the REST `data` object (e.g. `{ retailWatch }`).
 *
 * A refusal the user should see rejects with a `ConsoleError` (errors.ts) carrying the service's
 * client-facing error: status, message, and the field path in the REST body's terms, as
 * `mapCoreError` of @retail/gateway-shared gives them. Anything else is a 500 (logged, generic
 * message), or a 503 when the service cannot be reached.
 */
export interface WatchApi {
  createWatch(accountId: string, body: CreateWatchBody): Promise<WireData>;
  listWatches(accountId: string, query: PageQuery): Promise<WireData>;
  getWatch(accountId: string, id: string): Promise<WireData>;
  updateWatch(accountId: string, id: string, body: UpdateWatchBody): Promise<WireData>;
  deleteWatch(accountId: string, id: string): Promise<WireData>;
  /** Billed: one unit to the account, as the REST operation is. */
  getProductHistory(accountId: string, query: HistoryQuery): Promise<WireData>;
  listWatchEvents(accountId: string, query: EventsQuery): Promise<WireData>;
  listWebhookDeliveries(accountId: string, watchId: string, query: PageQuery): Promise<WireData>;
  redeliverWebhook(accountId: string, watchId: string, deliveryId: string): Promise<WireData>;
  /** A WEBHOOK_TEST event, delivered to the watch's webhook as any event (free). */
  sendTestWebhook(accountId: string, watchId: string): Promise<WireData>;
}
