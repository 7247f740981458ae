/**
 * A STAND-IN for the REST watch API (docs/watches.md, proto/retail/v1/watch.proto) until the real
 * one lands: a real HTTP server on a free port speaking the REST contract (paths, bodies, the `data`
 * envelope, errors), in memory, with a FIXED product history (hourly points: 10.00 → 8.00 → out of
 * stock → 9.00). The caller's account comes in `x-retail-account`, where the real API reads a key.
 * Creating a watch with a webhook also records one event and one DEAD delivery of it, so the page
 * has a delivery to redeliver. It checks only what the page's tests need; the console checks the
 * declared rules before calling it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';

export const HISTORY_HOURS = 48;
const HOUR = 3_600_000;

type Wire = Record<string, any>;

interface AccountState {
  watches: Wire[];
  events: Wire[];
  deliveries: Map<string, Wire[]>;
}

export interface WatchServiceDouble {
  readonly origin: string;
  /** Every request as `METHOD path?query`, for assertions on what the console called. */
  readonly calls: string[];
  readonly accounts: Map<string, AccountState>;
  close(): Promise<void>;
}

/** The fixed history, oldest first, ending `end`: price 10 for 12 h, 8 for 12 h, out of stock 12 h, then 9. */
export function fixedHistory(end: number, hours = HISTORY_HOURS): Wire[] {
  return Array.from({ length: hours }, (_, i) => {
    const phase = Math.floor((i * 4) / hours);
    const inStock = phase !== 2;
    const value = [10, 8, null, 9][phase];
    return {
      at: new Date(end - (hours - 1 - i) * HOUR).toISOString(),
      price: inStock ? { value, currency: 'USD' } : null,
      listPrice: { value: 12, currency: 'USD' },
      isInStock: inStock,
      buyboxSellerId: inStock ? 'ATVPDKIKX0DER' : null,
      rating: 4.5,
      ratingsTotal: 1200 + i,
      bestSellersRank: 500 - i,
      offerCount: inStock ? 3 : 0,
    };
  });
}

const fail = (res: Response, status: number, message: string, path?: string[]) =>
  res.status(status).json({ success: false, errors: [{ code: status, message, ...(path ? { path } : {}) }] });

export async function startWatchServiceDouble(clock: () => number = Date.now): Promise<WatchServiceDouble> {
  const accounts = new Map<string, AccountState>();
  const calls: string[] = [];
  let nextEvent = 1;
  let nextDelivery = 1;
  const now = () => new Date(clock()).toISOString();
  const stateOf = (req: Request) => {
    const id = String(req.headers['x-retail-account'] ?? '');
    if (!accounts.has(id)) accounts.set(id, { watches: [], events: [], deliveries: new Map() });
    return accounts.get(id)!;
  };
  const findWatch = (req: Request, res: Response, id: string) => {
    const watch = stateOf(req).watches.find((w) => w.id === id);
    if (!watch) fail(res, 404, 'No watch with this id', ['id']);
    return watch;
  };
  const page = (items: Wire[], req: Request) => {
    const start = Number(req.query.cursor ?? 0);
    const limit = Number(req.query.limit ?? 50);
    const slice = items.slice(start, start + limit);
    return { items: slice, nextCursor: start + limit < items.length ? String(start + limit) : null };
  };

  const app = express();
  app.use(express.json());
  app.use((req, res, next) => {
    calls.push(`${req.method} ${req.originalUrl}`);
    if (!req.headers['x-retail-account']) return fail(res, 401, 'API key required');
    next();
  });

  app.post('/api/retail/watches', (req, res) => {
    const body = req.body as Wire;
    const asin = body.asin ?? /\/dp\/([A-Z0-9]{10})/i.exec(String(body.url ?? ''))?.[1];
    if (!asin) return fail(res, 400, 'url must be a product URL with the ASIN in its path, like /dp/B000000000', ['url']);
    if (body.webhook && String(body.webhook.url).includes('.internal')) return fail(res, 400, 'webhook.url must not be an internal name', ['webhook', 'url']);
    const state = stateOf(req);
    const at = clock();
    const interval = body.intervalSeconds ?? 3600;
    const watch: Wire = {
      id: randomUUID(),
      asin: asin.toUpperCase(),
      domain: body.domain ?? 'US',
      label: body.label ?? null,
      intervalSeconds: interval,
      conditions: (body.conditions ?? []).map((c: Wire) => ({ type: c.type, value: c.value ?? null })),
      webhook: body.webhook ? { url: body.webhook.url } : null,
      status: 'ACTIVE',
      pausedReason: null,
      createdAt: now(),
      lastRefreshAt: now(),
      nextRefreshAt: new Date(at + interval * 1000).toISOString(),
    };
    state.watches.unshift(watch);
    const event = {
      id: `evt_${String(nextEvent++).padStart(12, '0')}`,
      watchId: watch.id,
      type: 'PRICE_AT_OR_BELOW',
      before: { price: { value: 10, currency: 'USD' }, isInStock: true },
      after: { price: { value: 8, currency: 'USD' }, isInStock: true },
      at: now(),
    };
    state.events.push(event);
    if (watch.webhook) {
      const delivery = {
        id: String(nextDelivery++),
        eventId: event.id,
        url: watch.webhook.url,
        attemptCount: 11,
        status: 'DEAD',
        lastResponseStatus: 503,
        lastError: 'receiver answered 503',
        nextAttemptAt: null,
        deliveredAt: null,
        createdAt: now(),
      };
      state.deliveries.set(watch.id, [delivery]);
    }
    const secret = watch.webhook ? `whsec_${randomBytes(32).toString('base64')}` : undefined;
    res.json({ data: { retailWatch: { ...watch, webhook: watch.webhook ? { ...watch.webhook, secret } : null } } });
  });

  app.get('/api/retail/watches', (req, res) => {
    const { items, nextCursor } = page(stateOf(req).watches, req);
    res.json({ data: { retailWatches: { watches: items, nextCursor } } });
  });

  app.get('/api/retail/watches/events', (req, res) => {
    const mine = stateOf(req).events.filter((e) => !req.query.watchId || e.watchId === req.query.watchId);
    const { items, nextCursor } = page(mine, req);
    res.json({ data: { retailWatchEvents: { events: items, nextCursor } } });
  });

  app.get('/api/retail/watches/:id', (req, res) => {
    const watch = findWatch(req, res, req.params.id);
    if (watch) res.json({ data: { retailWatch: watch } });
  });

  app.patch('/api/retail/watches/:id', (req, res) => {
    const watch = findWatch(req, res, req.params.id);
    if (!watch) return;
    const body = req.body as Wire;
    if (body.status) {
      watch.status = body.status;
      watch.pausedReason = body.status === 'PAUSED' ? 'USER' : null;
      watch.nextRefreshAt = body.status === 'PAUSED' ? null : new Date(clock() + watch.intervalSeconds * 1000).toISOString();
    }
    if (body.label !== undefined) watch.label = body.label === '' ? null : body.label;
    if (body.intervalSeconds !== undefined) watch.intervalSeconds = body.intervalSeconds;
    res.json({ data: { retailWatch: watch } });
  });

  app.delete('/api/retail/watches/:id', (req, res) => {
    const state = stateOf(req);
    if (!findWatch(req, res, req.params.id)) return;
    state.watches = state.watches.filter((w) => w.id !== req.params.id);
    res.json({ data: { retailWatch: { id: req.params.id, deleted: true } } });
  });

  app.get('/api/retail/watches/:watchId/deliveries', (req, res) => {
    if (!findWatch(req, res, req.params.watchId)) return;
    const { items, nextCursor } = page(stateOf(req).deliveries.get(req.params.watchId) ?? [], req);
    res.json({ data: { retailWebhookDeliveries: { deliveries: items, nextCursor } } });
  });

  app.post('/api/retail/watches/:watchId/deliveries/:deliveryId/redeliver', (req, res) => {
    if (!findWatch(req, res, req.params.watchId)) return;
    const delivery = stateOf(req).deliveries.get(req.params.watchId)?.find((d) => d.id === req.params.deliveryId);
    if (!delivery) return fail(res, 404, 'No delivery with this id', ['deliveryId']);
    Object.assign(delivery, { status: 'PENDING', nextAttemptAt: now(), lastError: null });
    res.json({ data: { retailWebhookDelivery: delivery } });
  });

  app.get('/api/retail/product/history', (req, res) => {
    const points = fixedHistory(clock()).slice(-Number(req.query.maxPoints ?? 500));
    res.json({ data: { retailProductHistory: { asin: req.query.asin, domain: req.query.domain ?? 'US', points } } });
  });

  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    accounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
