/**
 * The MCP gateway as a standalone express app (its own deployment): the router plus /healthz,
 * /readyz and JSON answers for anything else.
 */
import express from 'express';
import { errorEnvelope } from '@retail/contract';
import { observeRequests } from '@retail/gateway-shared';
import { type McpGatewayOptions, createMcpGateway } from './gateway.js';
import { jsonRpcError } from './rpc-errors.js';

export interface McpAppOptions extends McpGatewayOptions {
  /** Readiness of the dependencies (core health, ledger). */
  readonly ready?: () => Promise<boolean>;
}

export function createMcpApp(options: McpAppOptions): express.Express {
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
  app.use(createMcpGateway(options));
  app.use((_req, res) => {
    res.status(404).json(errorEnvelope(404, 'not found'));
  });
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (res.headersSent) return;
    res.status(500).json(jsonRpcError(null, -32603, 'Internal error'));
  });
  return app;
}
