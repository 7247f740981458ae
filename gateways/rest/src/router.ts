/**
 * The REST gateway: one GET route per registry operation, all served by the same bind → call →
 * map function, plus the free OpenAPI document and the account summary. Every answer under its
 * paths is JSON: data as `{ data }`, failures as the envelope, never express's HTML pages.
 */
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ErrorReason, errorEnvelope } from '@retail/contract';
import { type CoreClient, createCors, type GatewayLogger, type Operation, REGISTRY, requestIdFrom, runMeteredCall } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import { buildOpenApi } from './openapi.js';
import { readQuery } from './query.js';

export interface RestGatewayOptions {
  readonly core: CoreClient;
  readonly metering: { readonly meter: Meter };
  /** Origins allowed to call from browsers; CORS stays closed when empty. */
  readonly corsOrigins?: readonly string[];
  readonly operations?: readonly Operation[];
  /** Where server-side failures (5xx) are reported with their private cause; silent when absent. */
  readonly logger?: Pick<GatewayLogger, 'warn' | 'error'>;
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
  const operations = options.operations ?? REGISTRY;
  const router = express.Router();
  const owned = new Set([...operations.map((op) => op.restPath), OPENAPI_PATH, ACCOUNT_PATH]);
  const isOwned = (path: string) => owned.has(path) || path === PREFIX || path.startsWith(`${PREFIX}/`);

  router.use((req, res, next) => {
    if (!isOwned(req.path)) return next();
    res.set('X-Content-Type-Options', 'nosniff');
    return next();
  });
  router.use(createCors({ origins: options.corsOrigins ?? [], methods: ['GET'], applies: isOwned }));
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

  for (const op of operations) {
    // Express would serve HEAD with the GET handler: the whole marketplace call, billed, for an
    // empty body. HEAD is refused instead, before any key check or charge.
    router.head(op.restPath, (req, res) => {
      res.set('X-Request-Id', requestIdFrom(req.headers)).set('Allow', 'GET');
      sendError(res, 405, 'HEAD is not served on operation paths; use GET');
    });
    router.get(op.restPath, async (req, res) => {
      const query = readQuery(req.originalUrl);
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const result = await runMeteredCall({ core, meter }, { op, params: query, style: 'rest', headers: req.headers, signal: controller.signal });
      if (!result.ok && result.status >= 500) {
        options.logger?.[result.status === 500 ? 'error' : 'warn'](
          { requestId: result.requestId, operation: op.name, status: result.status, reason: ErrorReason[result.reason], err: result.cause },
          'operation failed',
        );
      }
      res.status(result.status).set(result.headers).set('Cache-Control', 'no-store');
      if (result.status === 401) res.set('WWW-Authenticate', WWW_AUTHENTICATE);
      if (result.ok) res.json({ data: result.data });
      else res.json({ success: false, errors: result.errors });
    });
  }

  // Known path, other method: 405 with Allow; unknown path under the prefix: 404. Both JSON.
  router.all(/.*/, (req, res, next) => {
    if (!isOwned(req.path)) return next();
    res.set('X-Request-Id', requestIdFrom(req.headers));
    if (owned.has(req.path)) {
      res.set('Allow', 'GET');
      return sendError(res, 405, `method ${req.method} is not allowed here; use GET`);
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

/** gzip and br for JSON bodies (compression 1.8 negotiates br). */
const compressor = compression({ threshold: 1024 });
