/**
 * The GraphQL gateway as a standalone express app (its own deployment): the router plus /healthz,
 * /readyz and JSON answers for anything else.
 */
import express from 'express';
import { errorEnvelope } from '@retail/contract';
import { observeRequests } from '@retail/gateway-shared';
import { type GraphqlGatewayOptions, createGraphqlGateway } from './gateway.js';

export interface GraphqlAppOptions extends GraphqlGatewayOptions {
  /** Readiness of the dependencies (core health, ledger). */
  readonly ready?: () => Promise<boolean>;
}

export async function createGraphqlApp(options: GraphqlAppOptions): Promise<express.Express> {
  const app = express();
  app.disable('x-powered-by');
  app.use(observeRequests());
  app.set('etag', false);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = options.ready ? await options.ready().catch(() => false) : true;
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });
  app.use(await createGraphqlGateway(options));
  app.use((_req, res) => {
    res.status(404).json(errorEnvelope(404, 'not found'));
  });
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (res.headersSent) return;
    res.status(500).json(errorEnvelope(500, 'internal error'));
  });
  return app;
}
