/**
 * The REST gateway deployment. Environment: PORT (8080), HOST, CORE_ADDRESS (127.0.0.1:50051),
 * SERVICE_TOKEN (required), CORE_DEADLINE_MS (10000), LEDGER_REDIS_URL / REDIS_URL (memory store
 * when neither), CORS_ORIGINS (comma list; closed when unset).
 */
import { createCoreClient, createGatewayLogger } from '@retail/gateway-shared';
import { createMeteringFromEnv } from '@retail/metering';
import { createRestApp } from './app.js';

const env = process.env;
const logger = createGatewayLogger('rest-gateway');
const serviceToken = env.SERVICE_TOKEN;
if (!serviceToken) {
  process.stderr.write('SERVICE_TOKEN is required\n');
  process.exit(1);
}
const metering = await createMeteringFromEnv(env);
const core = createCoreClient({
  address: env.CORE_ADDRESS || '127.0.0.1:50051',
  serviceToken,
  deadlineMs: Number(env.CORE_DEADLINE_MS) || 10_000,
});
const corsOrigins = (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
const app = createRestApp({
  core,
  metering,
  corsOrigins,
  logger,
  ready: async () => (await core.ping()) && (await metering.ready()),
});
const port = Number(env.PORT) || 8080;
const server = app.listen(port, env.HOST || '0.0.0.0', () => {
  logger.info({ port, core: env.CORE_ADDRESS || '127.0.0.1:50051', ledger: metering.storeKind }, 'rest gateway listening');
});
const shutdown = () => {
  server.close(() => void metering.close().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
