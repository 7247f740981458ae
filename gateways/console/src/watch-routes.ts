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
  SendTestWebhookRequestSchema,
  UpdateWatchRequestSchema,
  WatchConditionTypeSchema,
  wireEnumValues,
} from '@retail/contract';
import type { Plan } from '@retail/metering';
import type { ConsoleContext } from './context.js';
import { createRequireAccount } from './account-routes.js';
import type { CreateWatchBody, EventsQuery, HistoryQuery, PageQuery, UpdateWatchBody, WatchApi } from './watch-api.js';
import { parseBody, parseId, parseQuery } from './watch-input.js';

/**
 * What the create form offers: the marketplaces, condition types and interval bounds the proto
 * declares, the shortest interval narrowed to what the account's plan allows (the watcher refuses a
 * shorter one, so the form does not offer it).
 */
function formOptions(planName: string, plan: Plan | undefined) {
  const interval = parameterRules(CreateWatchRequestSchema.field.intervalSeconds);
  const minimum = Math.max(interval.minimum!, plan?.minWatchIntervalSeconds ?? 0);
  return {
    domains: wireEnumValues(DomainSchema),
    conditionTypes: wireEnumValues(WatchConditionTypeSchema),
    plan: planName,
    intervalSeconds: { minimum, maximum: interval.maximum, default: Math.max(Number(interval.defaultValue), minimum) },
  };
}

const param = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join('/') : String(value ?? ''));

export function createWatchRoutes(ctx: ConsoleContext, watches: WatchApi): Router {
  const router = Router();
  const requireAccount = createRequireAccount(ctx);
  const account = (res: Response) => res.locals.accountId as string;
  const watchId = (value: string | string[] | undefined) => parseId(GetWatchRequestSchema, 'id', param(value));

  router.get('/watches/options', requireAccount, async (_req, res) => {
    const { plan } = await ctx.metering.admin.summary(account(res));
    res.json({ data: formOptions(plan, ctx.plans[plan]) });
  });

  router.get('/watches', requireAccount, async (req, res) => {
    const query = parseQuery<PageQuery>(ListWatchesRequestSchema, req.query);
    res.json({ data: await watches.listWatches(account(res), query) });
  });

  router.post('/watches', requireAccount, async (req, res) => {
    const body = parseBody<CreateWatchBody>(CreateWatchRequestSchema, req.body);
    res.json({ data: await watches.createWatch(account(res), body) });
  });

  // Before `/watches/:id`, which would take "events" for an id.
  router.get('/watches/events', requireAccount, async (req, res) => {
    const query = parseQuery<EventsQuery>(ListWatchEventsRequestSchema, req.query);
    res.json({ data: await watches.listWatchEvents(account(res), query) });
  });

  router.get('/watches/:id', requireAccount, async (req, res) => {
    res.json({ data: await watches.getWatch(account(res), watchId(req.params.id)) });
  });

  router.patch('/watches/:id', requireAccount, async (req, res) => {
    const id = watchId(req.params.id);
    // `replaceConditions` is the REST layer's business: it sets it when `conditions` is present.
    const body = parseBody<UpdateWatchBody>(UpdateWatchRequestSchema, req.body, ['id', 'replaceConditions']);
    res.json({ data: await watches.updateWatch(account(res), id, body) });
  });

  router.delete('/watches/:id', requireAccount, async (req, res) => {
    res.json({ data: await watches.deleteWatch(account(res), watchId(req.params.id)) });
  });

  router.get('/watches/:watchId/deliveries', requireAccount, async (req, res) => {
    const id = parseId(ListWebhookDeliveriesRequestSchema, 'watchId', param(req.params.watchId));
    const query = parseQuery<PageQuery>(ListWebhookDeliveriesRequestSchema, req.query, ['watchId']);
    res.json({ data: await watches.listWebhookDeliveries(account(res), id, query) });
  });

  router.post('/watches/:watchId/deliveries/:deliveryId/redeliver', requireAccount, async (req, res) => {
    const id = parseId(RedeliverWebhookRequestSchema, 'watchId', param(req.params.watchId));
    const deliveryId = parseId(RedeliverWebhookRequestSchema, 'deliveryId', param(req.params.deliveryId));
    res.json({ data: await watches.redeliverWebhook(account(res), id, deliveryId) });
  });

  router.post('/watches/:watchId/test-event', requireAccount, async (req, res) => {
    const id = parseId(SendTestWebhookRequestSchema, 'watchId', param(req.params.watchId));
    res.json({ data: await watches.sendTestWebhook(account(res), id) });
  });

  router.get('/product/history', requireAccount, async (req, res) => {
    const query = parseQuery<HistoryQuery>(GetProductHistoryRequestSchema, req.query);
    res.json({ data: await watches.getProductHistory(account(res), query) });
  });

  return router;
}
