/**
 * The Watches page's API: the REST watch operations (docs/watches.md) under the console's own
 * prefix, acting for the signed-in account through the WatchApi the composition passes in. Paths
 * mirror the REST ones without `/retail` (`/api/watches`, `/api/product/history`, …) and answer the
 * same `data` objects, so the page reads what a REST client reads.
 */
import { Router, type Response } from 'express';
import {
  CreateWatchRequestSchema,
  DomainSchema,
  GetProductHistoryRequestSchema,
  GetWatchRequestSchema,
  ListWatchEventsRequestSchema,
  ListWatchesRequestSchema,
  ListWebhookDeliveriesRequestSchema,
  parameterRules,
  RedeliverWebhookRequestSchema,
  UpdateWatchRequestSchema,
  WatchConditionTypeSchema,
  wireEnumValues,
} from '@retail/contract';
import type { ConsoleContext } from './context.js';
import { createRequireAccount } from './account-routes.js';
import { ConsoleError } from './errors.js';
import type { CreateWatchBody, EventsQuery, HistoryQuery, PageQuery, UpdateWatchBody, WatchApi } from './watch-api.js';
import { parseBody, parseId, parseQuery } from './watch-input.js';

/** What the create form offers, from the proto: the marketplaces, condition types and interval bounds. */
function formOptions() {
  const interval = parameterRules(CreateWatchRequestSchema.field.intervalSeconds);
  return {
    domains: wireEnumValues(DomainSchema),
    conditionTypes: wireEnumValues(WatchConditionTypeSchema),
    intervalSeconds: { minimum: interval.minimum, maximum: interval.maximum, default: Number(interval.defaultValue) },
  };
}

/** Socket failures of a service that cannot be reached, anywhere along an error's causes. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);
/** gRPC codes (as Connect's errors carry them) that mean "not now": UNAVAILABLE, DEADLINE_EXCEEDED. */
const GRPC_NOT_NOW = new Set([14, 4]);

function unreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as Error & { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
    if (cause.name === 'ConnectError' && typeof code === 'number' && GRPC_NOT_NOW.has(code)) return true;
    cause = cause.cause;
  }
  return false;
}

/** A watch service that cannot be reached is a 503 to retry, not a 500; its refusals pass as they are. */
async function served<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof ConsoleError) && unreachable(error)) {
      throw new ConsoleError(503, 'The watch service is temporarily unavailable; try again shortly', { retryAfterSeconds: 1, cause: error });
    }
    throw error;
  }
}

const param = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join('/') : String(value ?? ''));

export function createWatchRoutes(ctx: ConsoleContext, watches: WatchApi): Router {
  const router = Router();
  const requireAccount = createRequireAccount(ctx);
  const account = (res: Response) => res.locals.accountId as string;
  const options = formOptions();
  const watchId = (value: string | string[] | undefined) => parseId(GetWatchRequestSchema, 'id', param(value));

  router.get('/watches/options', requireAccount, (_req, res) => {
    res.json({ data: options });
  });

  router.get('/watches', requireAccount, async (req, res) => {
    const query = parseQuery<PageQuery>(ListWatchesRequestSchema, req.query);
    res.json({ data: await served(watches.listWatches(account(res), query)) });
  });

  router.post('/watches', requireAccount, async (req, res) => {
    const body = parseBody<CreateWatchBody>(CreateWatchRequestSchema, req.body);
    res.json({ data: await served(watches.createWatch(account(res), body)) });
  });

  // Before `/watches/:id`, which would take "events" for an id.
  router.get('/watches/events', requireAccount, async (req, res) => {
    const query = parseQuery<EventsQuery>(ListWatchEventsRequestSchema, req.query);
    res.json({ data: await served(watches.listWatchEvents(account(res), query)) });
  });

  router.get('/watches/:id', requireAccount, async (req, res) => {
    res.json({ data: await served(watches.getWatch(account(res), watchId(req.params.id))) });
  });

  router.patch('/watches/:id', requireAccount, async (req, res) => {
    const id = watchId(req.params.id);
    // `replaceConditions` is the REST layer's business: it sets it when `conditions` is present.
    const body = parseBody<UpdateWatchBody>(UpdateWatchRequestSchema, req.body, ['id', 'replaceConditions']);
    res.json({ data: await served(watches.updateWatch(account(res), id, body)) });
  });

  router.delete('/watches/:id', requireAccount, async (req, res) => {
    res.json({ data: await served(watches.deleteWatch(account(res), watchId(req.params.id))) });
  });

  router.get('/watches/:watchId/deliveries', requireAccount, async (req, res) => {
    const id = parseId(ListWebhookDeliveriesRequestSchema, 'watchId', param(req.params.watchId));
    const query = parseQuery<PageQuery>(ListWebhookDeliveriesRequestSchema, req.query, ['watchId']);
    res.json({ data: await served(watches.listWebhookDeliveries(account(res), id, query)) });
  });

  router.post('/watches/:watchId/deliveries/:deliveryId/redeliver', requireAccount, async (req, res) => {
    const id = parseId(RedeliverWebhookRequestSchema, 'watchId', param(req.params.watchId));
    const deliveryId = parseId(RedeliverWebhookRequestSchema, 'deliveryId', param(req.params.deliveryId));
    res.json({ data: await served(watches.redeliverWebhook(account(res), id, deliveryId)) });
  });

  router.get('/product/history', requireAccount, async (req, res) => {
    const query = parseQuery<HistoryQuery>(GetProductHistoryRequestSchema, req.query);
    res.json({ data: await served(watches.getProductHistory(account(res), query)) });
  });

  return router;
}
