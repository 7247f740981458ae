/**
 * The console as its own deployment: `/console` (page + API), `/healthz`, `/readyz`.
 * Run: node --conditions=source --import tsx gateways/console/src/main.ts
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createMeteringFromEnv } from '@retail/metering';
import { createConsole } from './console.js';
import { loadConsoleConfig } from './config.js';
import { createMemoryUserStore } from './memory-store.js';
import { createRedisUserStore } from './redis-store.js';

const log = (level: string, message: string, detail: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level, time: new Date().toISOString(), message, ...detail }));

const config = loadConsoleConfig();
if (config.sessionSecretGenerated) {
  log('warn', 'CONSOLE_SESSION_SECRET is not set: using a random secret, sessions end with this process and are not shared across replicas');
}
const metering = await createMeteringFromEnv(process.env);
const users = config.redisUrl ? createRedisUserStore({ url: config.redisUrl, onError: (error) => log('warn', 'console store: Redis unreachable', { error: error.message }) }) : createMemoryUserStore();

const app = express();
app.disable('x-powered-by');
// Behind the Ingress: trust forwarding headers from cluster-internal hops only, so req.ip (used by
// the sign-in limits) is the real client and req.secure follows X-Forwarded-Proto.
app.set('trust proxy', 'loopback, linklocal, uniquelocal');
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.get('/readyz', async (_req, res) => {
  try {
    await users.ping();
    res.json({ status: 'ready' });
  } catch {
    res.status(503).json({ status: 'unavailable' });
  }
});
app.use(
  '/console',
  createConsole({
    metering,
    users,
    signupMode: config.signupMode,
    sessionSecret: config.sessionSecret,
    secureCookies: config.secureCookies,
    invites: config.invites,
    log: (message, detail) => log('error', message, detail),
  }),
);
app.get('/', (_req, res) => res.redirect('/console/'));

const server = app.listen(config.port, config.host, () => {
  const { port } = server.address() as AddressInfo;
  log('info', 'console listening', { address: `http://${config.host}:${port}/console/`, port, signupMode: config.signupMode });
});

const shutdown = () => {
  server.close(() => {
    void Promise.allSettled([users.close(), metering.close()]).then(() => process.exit(0));
  });
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
