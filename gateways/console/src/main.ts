/**
 * The console as its own deployment: `/console` (page + API), `/healthz`, `/readyz`.
 * Run: node --conditions=source --import tsx gateways/console/src/main.ts
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { answerClientErrorsWithEnvelope } from '@retail/gateway-shared/client-error';
import { answerHalfClosedRequests } from '@retail/gateway-shared/half-close';
import { logAccess } from '@retail/gateway-shared/access-log';
import { createGatewayLogger } from '@retail/gateway-shared/logger';
import { createPostgresDatabase } from '@retail/database/pg-database';
import { probeServersOrExit } from '@retail/contract/start-probe';
import { createMeteringFromEnv } from '@retail/metering';
import { meteringServers } from '@retail/metering/servers';
import { ConsoleConfigError } from './config.js';
import { createConsoleFromEnv } from './from-env.js';

const log = (level: string, message: string, detail: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level, time: new Date().toISOString(), message, ...detail }));

// A ledger Redis that does not take a connection stops the console here (one line, exit 2), not a "listening" that cannot sign anyone in.
await probeServersOrExit(meteringServers(process.env));
const metering = await createMeteringFromEnv(process.env);
// The users beside the accounts they own: the ledger's record (docs/console.md, Users).
const database = process.env.LEDGER_DATABASE_URL ? createPostgresDatabase({ connectionString: process.env.LEDGER_DATABASE_URL }) : undefined;
const consoleApp = (() => {
  try {
    return createConsoleFromEnv({ metering, plans: metering.plans, log, ...(database && { database }) });
  } catch (error) {
    if (!(error instanceof ConsoleConfigError)) throw error;
    // A bad environment is one line per variable, not a stack trace (as the core and gateways do).
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
})();
const { config } = consoleApp;

const app = express();
app.disable('x-powered-by');
// Behind the Ingress: trust forwarding headers from cluster-internal hops only, so req.ip (used by
// the sign-in limits) is the real client and req.secure follows X-Forwarded-Proto.
app.set('trust proxy', 'loopback, linklocal, uniquelocal');
app.use(logAccess(createGatewayLogger('console')));
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.get('/readyz', async (_req, res) => {
  const ready = await consoleApp.ready();
  res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
});
app.use('/console', consoleApp.router);
app.get('/', (_req, res) => res.redirect('/console/'));

const server = app.listen(config.port, config.host, () => {
  const { port } = server.address() as AddressInfo;
  log('info', 'console listening', { address: `http://${config.host}:${port}/console/`, port, signupMode: config.signupMode });
});
answerClientErrorsWithEnvelope(server);
answerHalfClosedRequests(server);

const shutdown = () => {
  server.close(() => {
    void Promise.allSettled([consoleApp.close(), metering.close()])
      .then(() => database?.close())
      .finally(() => process.exit(0));
  });
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
