/**
 * The REST gateway: one route per registry operation (its method and path from the proto: GET with
 * a query string for lookups and reads, POST / PATCH / DELETE with path parameters and a JSON body
 * for managing watches), all served by the same bind → call → map function, plus the free OpenAPI
 * document, the account summary and usage history (and, from pages/, the landing page, API reference and docs).
 * Every answer under its API paths is JSON: data as `{ data }`,
 * failures as the envelope, never express's HTML pages.
 */
import compression from 'compression';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ErrorReason, errorEnvelope } from '@retail/contract';
import {
  API_REGISTRY, BATCH_REGISTRY, type BodyRefusal, pageHeaders, type CallResult, type CoreClient, createCors, type GatewayLogger, jsonBody, type Operation, requestIdFrom, runMeteredCall,
} from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import { ACCOUNT_USAGE_PATH, accountUsageRoute } from './account-usage-route.js';
import { BATCH_BODY_LIMIT_BYTES, batchRoute } from './batch-route.js';
import { JOB_EVENTS_PATH, JOB_RESULTS_PATH, JOBS_PATH } from './job-paths.js';
import { createJobRoutes } from './job-routes.js';
import { buildOpenApi } from './openapi.js';
import { createPages, type PagesOptions } from './pages/index.js';
import { readRestInput } from './rest-input.js';
import { createMethodTable, expressPath, routeOrder } from './routes.js';
import { STATUS_PATH, statusRoute } from './status-route.js';
import { STATUS_PAGE_PATH, statusPage } from './pages/status-page.js';

export interface RestGatewayOptions {
  readonly core: CoreClient;
  readonly metering: { readonly meter: Meter };
  /** Origins allowed to call from browsers; CORS stays closed when empty. */
  readonly corsOrigins?: readonly string[];
  readonly operations?: readonly Operation[];
  /** Where server-side failures (5xx) are reported with their private cause; silent when absent. */
  readonly logger?: Pick<GatewayLogger, 'warn' | 'error'>;
  /** The landing page, API reference and documentation (pages/index.ts). */
  readonly pages?: PagesOptions;
}

/** Paths this router owns; anything else passes to the next router (GraphQL, MCP, console). */
const PREFIX = '/api/retail';
const OPENAPI_PATH = '/api/openapi.json';
const ACCOUNT_PATH = '/api/account';

/** RFC 9110: a 401 names the scheme it wants (the API-KEY header works as well). */
const WWW_AUTHENTICATE = 'Bearer realm="retail"';

function sendError(res: Response, status: number, message: string, path?: string[], headers: Record<string, string> = {}): void {
  if (status === 401) res.set('WWW-Authenticate', WWW_AUTHENTICATE);
  res.status(status).set(headers).set('Cache-Control', 'no-store').json(errorEnvelope(status, message, path));
}

export function createRestGateway(options: RestGatewayOptions): express.Router {
  const { core } = options;
  const meter = options.metering.meter;
  const operations = options.operations ?? API_REGISTRY;
  const router = express.Router();
  const servesJobs = operations.some((op) => op.restPath === JOBS_PATH);
  const methods = createMethodTable(operations, [OPENAPI_PATH, ACCOUNT_PATH, ACCOUNT_USAGE_PATH, STATUS_PATH, ...(servesJobs ? [JOB_RESULTS_PATH, JOB_EVENTS_PATH] : [])], [BATCH_REGISTRY.restPath]);
  const isOwned = (path: string) => methods.allowed(path) !== undefined || path === PREFIX || path.startsWith(`${PREFIX}/`);

  router.use((req, res, next) => {
    if (!isOwned(req.path)) return next();
    res.set('X-Content-Type-Options', 'nosniff');
    return next();
  });
  const servedMethods = [...new Set(['GET', 'POST', ...operations.map((op) => op.httpMethod)])]; // POST: the batch
  router.use(createCors({ origins: options.corsOrigins ?? [], methods: servedMethods, applies: isOwned }));
  // A known path with a method it does not serve: 405 with Allow, before any key check or charge.
  // HEAD included: express would serve it with the GET handler (the whole call, billed, for an
  // empty body); the free document and the account summary keep express's HEAD. OPTIONS passes to
  // CORS above or to the 404/405 fallback below.
  const headServed = new Set([OPENAPI_PATH, ACCOUNT_PATH, ACCOUNT_USAGE_PATH, STATUS_PATH]);
  router.use((req, res, next) => {
    const allowed = methods.allowed(req.path);
    if (!allowed || (allowed as readonly string[]).includes(req.method) || req.method === 'OPTIONS') return next();
    if (req.method === 'HEAD' && headServed.has(req.path)) return next();
    res.set('X-Request-Id', requestIdFrom(req.headers)).set('Allow', allowed.join(', '));
    const message = req.method === 'HEAD' && allowed.includes('GET') ? 'HEAD is not served on operation paths; use GET' : `method ${req.method} is not allowed here; use ${allowed.join(' or ')}`;
    return sendError(res, 405, message);
  });
  router.use((req, res, next) => {
    if (!isOwned(req.path)) return next();
    if (req.headers['accept-encoding'] !== undefined) return compressor(req, res, next);
    // Nothing to negotiate: the compression middleware would wrap write/end and hook the headers
    // only to send identity (about 25 µs a request, measured); its Vary header is all it would add.
    res.vary('Accept-Encoding');
    return next();
  });

  const openApiBody = JSON.stringify(buildOpenApi(operations));
  router.get(OPENAPI_PATH, (_req, res) => {
    res.type('application/json').set('Cache-Control', 'public, max-age=300').send(openApiBody);
  });

  // Public and unmetered: no key is read (docs/data-health.md).
  router.get(STATUS_PATH, statusRoute(core));
  router.get(STATUS_PAGE_PATH, pageHeaders, statusPage(core));

  router.get(ACCOUNT_PATH, async (req, res) => {
    const requestId = requestIdFrom(req.headers);
    res.set('X-Request-Id', requestId);
    const credentials = meter.readCredentials(req.headers, 'rest');
    if (!credentials.ok) return sendError(res, credentials.denial.httpStatus, credentials.denial.message);
    try {
      const summary = await meter.accountSummary(credentials.key);
      if ('httpStatus' in summary) return sendError(res, summary.httpStatus, summary.message);
      res.set('Cache-Control', 'no-store').json({ data: summary });
    } catch {
      sendError(res, 503, 'the unit ledger is unavailable', undefined, { 'Retry-After': '1' });
    }
  });

  // Free as the summary: the account's own usage history from the record (account-usage-route.ts).
  router.get(ACCOUNT_USAGE_PATH, accountUsageRoute(meter, sendError));

  const respond = (res: Response, op: Operation | undefined, result: CallResult) => {
    if (!result.ok && result.status >= 500) {
      options.logger?.[result.status === 500 ? 'error' : 'warn'](
        { requestId: result.requestId, operation: op?.name ?? 'batch or job route', status: result.status, reason: ErrorReason[result.reason], err: result.cause },
        'operation failed',
      );
    }
    res.status(result.status).set(result.headers).set('Cache-Control', 'no-store');
    if (result.status === 401) res.set('WWW-Authenticate', WWW_AUTHENTICATE);
    if (result.ok) res.json({ data: result.data });
    else res.json({ success: false, errors: result.errors });
  };

  const call = (op: Operation): RequestHandler => async (req, res) => {
    const input = readRestInput(op, req);
    if (!input.ok) {
      res.set('X-Request-Id', requestIdFrom(req.headers));
      return sendError(res, 400, input.message, input.path);
    }
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    respond(res, op, await runMeteredCall({ core, meter }, { op, params: input.params, style: 'rest', headers: req.headers, signal: controller.signal }));
  };

  router.post(BATCH_REGISTRY.restPath, requireJson, readBatchBody, batchRoute({
    deps: { core, meter },
    refuse: (res, result) => respond(res, undefined, result),
    refuseBody: (res, message) => {
      res.set('X-Request-Id', requestIdFrom(res.req.headers));
      sendError(res, 400, message, ['body']);
    },
    report: (requestId, failed) => options.logger?.warn({ requestId, operation: 'BatchLookup', failed: failed.map((f) => ({ index: f.index, status: f.status, reason: ErrorReason[f.reason], err: f.cause })) }, 'batch items failed'),
  }));
  // Bulk jobs: the create (three body forms, 202), the results download and the progress events (job-routes.ts).
  if (servesJobs) router.use(createJobRoutes({ core, meter, respond: (res, result) => respond(res, undefined, result) }));
  for (const op of routeOrder(operations)) {
    if (op.httpMethod === 'POST' && op.restPath === JOBS_PATH) continue; // served by the job routes above
    const path = expressPath(op);
    if (op.httpMethod === 'GET') router.get(path, call(op));
    else router[op.httpMethod === 'POST' ? 'post' : op.httpMethod === 'PATCH' ? 'patch' : 'delete'](path, requireJson, readJsonBody, call(op));
  }

  // After the API's routes, so that no API call walks through them.
  router.use(createPages(options.pages));

  // Unknown path under the prefix (or OPTIONS without a CORS preflight): 404, JSON.
  router.all(/.*/, (req, res, next) => {
    if (!isOwned(req.path)) return next();
    res.set('X-Request-Id', requestIdFrom(req.headers));
    const allowed = methods.allowed(req.path);
    if (allowed) {
      res.set('Allow', allowed.join(', '));
      return sendError(res, 405, `method ${req.method} is not allowed here; use ${allowed.join(' or ')}`);
    }
    return sendError(res, 404, 'no such operation; see /api/openapi.json');
  });

  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!isOwned(req.path) || res.headersSent) return next(err);
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500) return sendError(res, status, 'malformed request');
    options.logger?.error({ err, path: req.path }, 'unhandled error in the REST gateway');
    return sendError(res, 500, 'internal error');
  });

  return router;
}

/** A body, when there is one, must say it is JSON (an empty body is no parameters). */
const requireJson: RequestHandler = (req, res, next) => {
  // `Content-Length: 0` counts as a body for type-is; clients send it on a body-less POST.
  const empty = req.headers['content-length'] === '0' && req.headers['transfer-encoding'] === undefined;
  if (empty || req.is(['application/json', '+json']) !== false) return next();
  res.set('X-Request-Id', requestIdFrom(req.headers));
  return sendError(res, 415, 'the request body must be JSON (Content-Type: application/json)', ['body']);
};

/** A body that cannot be read answers 400 / 413 / 415, in the envelope. */
const refuseUnreadableBody = (res: Response, { status, message }: BodyRefusal) => {
  res.set('X-Request-Id', requestIdFrom(res.req.headers));
  sendError(res, status, message, ['body']);
};

/** The body as JSON within the shared size limit; unreadable bodies answer 400 / 413 / 415 here. */
const readJsonBody = jsonBody(refuseUnreadableBody);

/** A batch body: up to 100 items, so a larger limit (batch-route.ts). */
const readBatchBody = jsonBody(refuseUnreadableBody, BATCH_BODY_LIMIT_BYTES);

/** gzip and br for JSON bodies (compression 1.8 negotiates br). */
const compressor = compression({ threshold: 1024 });
