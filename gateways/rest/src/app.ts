/**
 * The REST gateway as a standalone express app (its own deployment): the router plus /healthz,
 * /readyz and JSON answers for anything else, so express's HTML pages never reach a client.
 */
import express from 'express';
import { errorEnvelope } from '@retail/contract';
import { observeRequests } from '@retail/gateway-shared';
import { createRestGateway, type RestGatewayOptions } from './router.js';

export interface RestAppOptions extends RestGatewayOptions {
  /** Readiness of the dependencies (core health, ledger). */
  readonly ready?: () => Promise<boolean>;
}

export function createRestApp(options: RestAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false); // the gateway reads the raw query string itself
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = options.ready ? await options.ready().catch(() => false) : true;
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });
  app.use(observeRequests());
  app.use(createRestGateway(options));
  app.use((_req, res) => {
    res.status(404).json(errorEnvelope(404, 'not found'));
  });
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = (err as { status?: number }).status;
    const clientError = typeof status === 'number' && status >= 400 && status < 500;
    if (res.headersSent) return;
    res.status(clientError ? status : 500).json(errorEnvelope(clientError ? status : 500, clientError ? 'malformed request' : 'internal error'));
  });
  return app;
}
