/**
 * What every gateway deployment (rest, graphql, mcp) does the same way: build its standalone app and
 * serve it with a graceful SIGTERM shutdown (its settings: gateway-settings.ts).
 */
import type { Server } from 'node:http';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { errorEnvelope } from '@retail/contract';
import { answerClientErrorsWithEnvelope } from './client-error.js';
import type { HealthStatus } from './health.js';
import { answerHalfClosedRequests } from './half-close.js';
import type { GatewaySettings } from './gateway-settings.js';
import { createGatewayLogger, type GatewayLogger } from './logger.js';
import { observeRequests } from './tracing.js';

/**
 * Listens (protocol-level refusals in the error envelope: client-error.ts; answers after a client's half-close: half-close.ts), logs one JSON line, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish
 * (10 s at most), then closes what `close` names (the ledger connection).
 */
export function serveGateway(
  name: string,
  app: Express,
  settings: GatewaySettings,
  options: { readonly close: () => Promise<void>; readonly details?: Record<string, unknown> },
): Server {
  const server = app.listen(settings.port, settings.host, () => {
    console.log(JSON.stringify({ level: 'info', msg: `${name} listening`, port: settings.port, core: settings.core.address, ...options.details }));
  });
  answerClientErrorsWithEnvelope(server);
  answerHalfClosedRequests(server);
  const shutdown = () => {
    server.close(() => void options.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return server;
}

/** The marketplace's health entry in the words of a /readyz body. */
const MARKETPLACE_WORDS: Readonly<Record<HealthStatus, string>> = {
  SERVING: 'reachable',
  NOT_SERVING: 'unreachable',
  UNKNOWN: 'not checked yet',
  SERVICE_UNKNOWN: 'not reported by this core',
  NO_ANSWER: 'unknown: the core did not answer',
};

/** What a gateway's options gain when it runs as its own deployment. */
export interface StandaloneGatewayOptions {
  /** Readiness of the dependencies (core health, ledger); /readyz answers 503 while it is false. */
  readonly ready?: () => Promise<boolean>;
  /**
   * Whether the core reaches the marketplace (CoreClient.marketplaceHealth): said in the body of
   * /readyz, never a reason to be unready (docs/resilience.md, Readiness).
   */
  readonly marketplace?: () => Promise<HealthStatus>;
  /** Where the access log goes (access-log.ts); a logger named "gateway" when not given. */
  readonly accessLog?: GatewayLogger;
}

/**
 * The standalone express app of one gateway deployment: its request spans and metrics, /healthz,
 * /readyz (the dependencies' readiness), the gateway's router, a JSON 404 and a last-resort error
 * handler, so express's HTML pages never reach a client.
 */
export function createGatewayApp(options: StandaloneGatewayOptions & {
  readonly router: RequestHandler;
  /** Express settings of the gateway (REST reads the raw query string: `query parser` false). */
  readonly settings?: Record<string, unknown>;
  /** The body of an unexpected failure (MCP answers a JSON-RPC error); status 4xx errors from express keep their status. */
  readonly internalError?: () => unknown;
}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  for (const [name, value] of Object.entries(options.settings ?? {})) app.set(name, value);
  app.use(observeRequests(options.accessLog ?? createGatewayLogger('gateway')));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const [ready, marketplace] = await Promise.all([
      options.ready ? options.ready().catch(() => false) : true,
      options.marketplace?.().catch((): HealthStatus => 'NO_ANSWER'),
    ]);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', ...(marketplace ? { marketplace: MARKETPLACE_WORDS[marketplace] } : {}) });
  });
  app.use(options.router);
  app.use((_req, res) => void res.status(404).json(errorEnvelope(404, 'not found')));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    // Errors express raises itself (malformed URL encoding, body parsing) carry a 4xx status.
    const status = (err as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json(errorEnvelope(status, 'malformed request'));
      return;
    }
    res.status(500).json(options.internalError ? options.internalError() : errorEnvelope(500, 'internal error'));
  });
  return app;
}
