/**
 * A CONTRACT DOUBLE of the watcher for gateway-tier tests, NOT the watcher: an in-memory
 * implementation of WatchService's unary RPCs, served over real gRPC (grpc-js, HTTP/2) on a free
 * loopback port, so REST, GraphQL and MCP tests exercise their real client, metadata and error
 * mapping without PostgreSQL, Redis or refreshes. It keeps the watcher's promises that the gateways
 * rely on: the service token in `authorization`, the caller's account in `x-retail-account`, another
 * account's watch is NOT_FOUND, and errors carry a retail.v1.ErrorDetail in
 * `grpc-status-details-bin`. Every call is recorded (method, account, request) for assertions.
 * StreamWatchEvents is not served (gRPC-only, no gateway surface).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type DescMethod, type Message, type MessageInitShape, create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { type Timestamp, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Metadata, Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import {
  Domain, ErrorDetailSchema, HistoryPointQuality, ErrorReason, GRPC_STATUS_DETAILS_METADATA_KEY, ProductHistoryPointSchema, type Watch, type WatchEvent,
  WatchConditionSchema, WatchEventSchema, WatchPausedReason, WatchEventType, WatchSchema, WatchWebhookSchema, WatchService, WatchStatus, type WebhookDelivery, WebhookDeliverySchema, WebhookDeliveryStatus, encodeErrorStatus, errorRow,
} from '@retail/contract';

export const WATCH_BACKEND_ACCOUNT_KEY = 'x-retail-account';

/** One RPC the double received: name (e.g. "CreateWatch"), the caller's account, the decoded request. */
export interface WatchBackendCall { readonly method: string; readonly accountId: string | undefined; readonly request: Message & Record<string, unknown> }

/** A failure the real watcher would raise: the reason's gRPC code, its message, the field path. */
export class WatchBackendError extends Error {
  constructor(readonly reason: ErrorReason, message?: string, readonly fieldPath: string[] = []) {
    super(message ?? errorRow(reason).defaultMessage);
  }
}

export interface WatchBackend {
  /** host:port to give the gateways as WATCHER_ADDRESS. */
  readonly address: string;
  readonly calls: WatchBackendCall[];
  /** Watches by id (any account); tests may read or edit them. */
  readonly watches: Map<string, { accountId: string; watch: Watch }>;
  /** Adds an event for a watch the account owns (ids increase: they are the cursor). */
  addEvent(accountId: string, watchId: string, type?: WatchEventType): WatchEvent;
  /** Adds a delivery to a watch (DEAD by default, so it can be redelivered). */
  addDelivery(watchId: string, status?: WebhookDeliveryStatus): WebhookDelivery;
  /** The points GetProductHistory answers for one product (oldest first); unknown products have none. */
  setHistory(domain: Domain, asin: string, points: Array<MessageInitShape<typeof ProductHistoryPointSchema>>): void;
  /** The next call of `method` fails with this error (once). */
  failNext(method: string, error: WatchBackendError): void;
  close(): Promise<void>;
}

type Handler = (request: Message & Record<string, unknown>, accountId: string) => Message | Record<string, unknown>;

function notFound(what: string): WatchBackendError {
  return new WatchBackendError(ErrorReason.NOT_FOUND, `${what} not found`);
}

function errorMetadata(error: WatchBackendError): Metadata {
  const detail = create(ErrorDetailSchema, { reason: error.reason, message: error.message, fieldPath: error.fieldPath });
  const metadata = new Metadata();
  metadata.set(GRPC_STATUS_DETAILS_METADATA_KEY, Buffer.from(encodeErrorStatus(errorRow(error.reason).grpcCode, detail)));
  return metadata;
}

/** A page of `items` after the offset in `cursor`, with the next offset as cursor (or none at the end). */
function page<T>(items: T[], cursor: unknown, limit: unknown, fallback: number): { items: T[]; nextCursor?: string } {
  const start = typeof cursor === 'string' && cursor !== '' ? Number(cursor) : 0;
  if (!Number.isInteger(start) || start < 0) throw new WatchBackendError(ErrorReason.INVALID_ARGUMENT, 'cursor is not valid', ['cursor']);
  const size = typeof limit === 'number' && limit > 0 ? limit : fallback;
  const slice = items.slice(start, start + size);
  return start + size < items.length ? { items: slice, nextCursor: String(start + size) } : { items: slice };
}

function unaryDefinition(methods: readonly DescMethod[]): ServiceDefinition {
  const definition: Record<string, ServiceDefinition[string]> = {};
  for (const method of methods) {
    definition[method.name] = {
      path: `/${WatchService.typeName}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (message: Message) => Buffer.from(toBinary(method.input, message)),
      requestDeserialize: (bytes: Buffer) => fromBinary(method.input, bytes),
      responseSerialize: (message: Message) => Buffer.from(toBinary(method.output, message)),
      responseDeserialize: (bytes: Buffer) => fromBinary(method.output, bytes),
      originalName: method.localName,
    } as ServiceDefinition[string];
  }
  return definition as ServiceDefinition;
}

export async function startWatchBackend(options: { serviceToken: string }): Promise<WatchBackend> {
  const calls: WatchBackendCall[] = [];
  const watches = new Map<string, { accountId: string; watch: Watch }>();
  const events: Array<{ accountId: string; event: WatchEvent }> = [];
  const deliveries = new Map<string, { watchId: string; delivery: WebhookDelivery }>();
  const history = new Map<string, Array<MessageInitShape<typeof ProductHistoryPointSchema>>>();
  const failures = new Map<string, WatchBackendError>();
  let eventSeq = 0;
  let deliverySeq = 0;
  const now = (): Timestamp => timestampFromDate(new Date());

  const owned = (id: unknown, accountId: string): Watch => {
    const entry = watches.get(String(id));
    if (!entry || entry.accountId !== accountId) throw notFound('watch');
    return entry.watch;
  };
  const conditionsOf = (list: unknown) => (list as Array<{ type: number; value?: number }>).map((c) => create(WatchConditionSchema, { type: c.type, ...(c.value !== undefined ? { value: c.value } : {}) }));
  const webhookOf = (url: string, secret?: string) => create(WatchWebhookSchema, { url, ...(secret ? { secret } : {}) });
  // The secret is shown once, in the answer that set the webhook; the stored watch keeps only the URL.
  const withSecret = (watch: Watch, target: { url: string } | undefined) =>
    target ? create(WatchSchema, { ...watch, webhook: webhookOf(target.url, `whsec_${randomBytes(24).toString('base64')}`) }) : watch;

  const handlers: Record<string, Handler> = {
    CreateWatch(req, accountId) {
      const fromUrl = typeof req.url === 'string' ? /\/dp\/([A-Za-z0-9]{10})/.exec(req.url)?.[1] : undefined;
      const asin = (typeof req.asin === 'string' ? req.asin : fromUrl)?.toUpperCase();
      if (!asin) throw new WatchBackendError(ErrorReason.INVALID_ARGUMENT, 'this double resolves only asin and /dp/ URLs', ['asin']);
      const webhook = req.webhook as { url: string } | undefined;
      const watch = create(WatchSchema, {
        id: randomUUID(), asin, domain: (req.domain as Domain) || Domain.US, intervalSeconds: (req.intervalSeconds as number | undefined) ?? 3600,
        conditions: conditionsOf(req.conditions), status: WatchStatus.ACTIVE, createdAt: now(), lastRefreshAt: now(), nextRefreshAt: now(),
        ...(typeof req.label === 'string' ? { label: req.label } : {}),
        ...(webhook ? { webhook: webhookOf(webhook.url) } : {}),
      });
      watches.set(watch.id, { accountId, watch });
      return { retailWatch: withSecret(watch, webhook) };
    },
    ListWatches(req, accountId) {
      const mine = [...watches.values()].filter((e) => e.accountId === accountId).map((e) => e.watch).reverse();
      const { items, nextCursor } = page(mine, req.cursor, req.limit, 50);
      return { retailWatches: { watches: items, ...(nextCursor ? { nextCursor } : {}) } };
    },
    GetWatch: (req, accountId) => ({ retailWatch: owned(req.id, accountId) }),
    UpdateWatch(req, accountId) {
      const watch = owned(req.id, accountId);
      if (typeof req.label === 'string') watch.label = req.label === '' ? undefined : req.label;
      if (typeof req.intervalSeconds === 'number') watch.intervalSeconds = req.intervalSeconds;
      if (req.replaceConditions) watch.conditions = conditionsOf(req.conditions);
      if (req.removeWebhook) watch.webhook = undefined;
      const webhook = req.webhook as { url: string } | undefined;
      if (webhook) watch.webhook = webhookOf(webhook.url);
      if (typeof req.status === 'number' && req.status !== WatchStatus.UNSPECIFIED) {
        watch.status = req.status;
        watch.pausedReason = req.status === WatchStatus.PAUSED ? WatchPausedReason.USER : undefined;
      }
      return { retailWatch: withSecret(watch, webhook) };
    },
    DeleteWatch(req, accountId) {
      const watch = owned(req.id, accountId);
      watches.delete(watch.id);
      return { retailWatch: { id: watch.id, deleted: true } };
    },
    GetProductHistory(req) {
      const domain = (req.domain as Domain) || Domain.US;
      const asin = String(req.asin).toUpperCase();
      return { retailProductHistory: { asin, domain, points: history.get(`${domain}:${asin}`) ?? [] } };
    },
    ListWatchEvents(req, accountId) {
      const after = typeof req.cursor === 'string' && req.cursor !== '' ? BigInt(req.cursor) : 0n;
      const mine = events.filter((e) => e.accountId === accountId && BigInt(e.event.id) > after && (!req.watchId || e.event.watchId === req.watchId));
      const limited = mine.slice(0, typeof req.limit === 'number' && req.limit > 0 ? req.limit : 100).map((e) => e.event);
      const last = limited.at(-1);
      return { retailWatchEvents: { events: limited, ...(last && limited.length < mine.length ? { nextCursor: last.id } : {}) } };
    },
    ListWebhookDeliveries(req, accountId) {
      const watch = owned(req.watchId, accountId);
      const mine = [...deliveries.values()].filter((d) => d.watchId === watch.id).map((d) => d.delivery).reverse();
      const { items, nextCursor } = page(mine, req.cursor, req.limit, 50);
      return { retailWebhookDeliveries: { deliveries: items, ...(nextCursor ? { nextCursor } : {}) } };
    },
    SendTestWebhook(req, accountId) {
      const watch = owned(req.watchId, accountId);
      const url = watch.webhook?.url;
      if (!url) throw new WatchBackendError(ErrorReason.INVALID_ARGUMENT, 'the watch has no webhook: set its webhook.url first');
      const event = create(WatchEventSchema, { id: String(++eventSeq), watchId: watch.id, type: WatchEventType.WEBHOOK_TEST, at: now(), after: { status: watch.status } });
      events.push({ accountId, event });
      const delivery = create(WebhookDeliverySchema, { id: String(++deliverySeq), eventId: event.id, url, attemptCount: 0, status: WebhookDeliveryStatus.PENDING, createdAt: now() });
      deliveries.set(delivery.id, { watchId: watch.id, delivery });
      return { retailWatchEvent: event };
    },
    RedeliverWebhook(req, accountId) {
      const watch = owned(req.watchId, accountId);
      const entry = deliveries.get(String(req.deliveryId));
      if (!entry || entry.watchId !== watch.id) throw notFound('delivery');
      entry.delivery.status = WebhookDeliveryStatus.PENDING;
      entry.delivery.nextAttemptAt = now();
      return { retailWebhookDelivery: entry.delivery };
    },
  };

  const served = WatchService.methods.filter((m) => m.methodKind === 'unary');
  const implementation: UntypedServiceImplementation = {};
  for (const method of served) {
    implementation[method.localName] = (call: ServerUnaryCall<Message & Record<string, unknown>, Message>, callback: sendUnaryData<Message>) => {
      const accountId = call.metadata.get(WATCH_BACKEND_ACCOUNT_KEY)[0]?.toString();
      calls.push({ method: method.name, accountId, request: call.request });
      try {
        if (call.metadata.get('authorization')[0] !== `Bearer ${options.serviceToken}`) throw new WatchBackendError(ErrorReason.UNAUTHENTICATED_SERVICE);
        if (!accountId) throw new WatchBackendError(ErrorReason.INVALID_ARGUMENT, 'x-retail-account is missing');
        const failure = failures.get(method.name);
        if (failure) {
          failures.delete(method.name);
          throw failure;
        }
        const out = handlers[method.name]!(call.request, accountId);
        callback(null, '$typeName' in out ? (out as Message) : create(method.output, out));
      } catch (error) {
        const failure = error instanceof WatchBackendError ? error : new WatchBackendError(ErrorReason.INTERNAL, String(error));
        callback({ code: errorRow(failure.reason).grpcCode, details: failure.message, metadata: errorMetadata(failure) }, null);
      }
    };
  }
  const server = new Server();
  server.addService(unaryDefinition(served), implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));

  return {
    address: `127.0.0.1:${port}`,
    calls,
    watches,
    addEvent(accountId, watchId, type = WatchEventType.PRICE_AT_OR_BELOW) {
      const event = create(WatchEventSchema, {
        id: String(++eventSeq), watchId, type, at: now(), after: { price: { value: 8, currency: 'USD', symbol: '$' } },
      });
      events.push({ accountId, event });
      return event;
    },
    addDelivery(watchId, status = WebhookDeliveryStatus.DEAD) {
      const delivery = create(WebhookDeliverySchema, {
        id: String(++deliverySeq), eventId: String(eventSeq), url: watches.get(watchId)?.watch.webhook?.url ?? 'https://receiver.example/hook',
        attemptCount: 1, status, createdAt: now(),
      });
      deliveries.set(delivery.id, { watchId, delivery });
      return delivery;
    },
    setHistory(domain, asin, points) {
      // As the watcher does, a point always carries its mark: OK unless the test gave another.
      history.set(`${domain}:${asin.toUpperCase()}`, points.map((point) => ({ quality: HistoryPointQuality.OK, ...point })));
    },
    failNext(method, error) {
      failures.set(method, error);
    },
    close: () => new Promise<void>((resolve) => {
      server.tryShutdown(() => resolve());
      // Gateways keep their HTTP/2 sessions open; do not wait for them.
      setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 200).unref();
    }),
  };
}
