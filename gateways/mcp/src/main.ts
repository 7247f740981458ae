/**
 * The MCP gateway deployment. Environment: PORT (8080), HOST, CORE_ADDRESS (127.0.0.1:50051),
 * SERVICE_TOKEN (required), CORE_DEADLINE_MS (10000), LEDGER_REDIS_URL / REDIS_URL (memory store
 * when neither), CORS_ORIGINS (comma list; closed when unset), MCP_BODY_LIMIT_BYTES (65536).
 */
import { createCoreClient } from '@retail/gateway-shared';
import { createMeteringFromEnv } from '@retail/metering';
import { createMcpApp } from './app.js';

const env = process.env;
const serviceToken = env.SERVICE_TOKEN;
if (!serviceToken) {
  console.error('SERVICE_TOKEN is required');
  process.exit(1);
}
const positive = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};
const metering = await createMeteringFromEnv(env);
const core = createCoreClient({
  address: env.CORE_ADDRESS || '127.0.0.1:50051',
  serviceToken,
  deadlineMs: positive(env.CORE_DEADLINE_MS) ?? 10_000,
});
const bodyLimitBytes = positive(env.MCP_BODY_LIMIT_BYTES);
const app = createMcpApp({
  core,
  metering,
  corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
  ...(bodyLimitBytes ? { bodyLimitBytes } : {}),
  ready: async () => (await core.ping()) && (await metering.ready()),
});
const port = Number(env.PORT) || 8080;
const server = app.listen(port, env.HOST || '0.0.0.0', () => {
  console.log(JSON.stringify({ msg: 'mcp gateway listening', port, path: '/api/mcp', core: env.CORE_ADDRESS || '127.0.0.1:50051', ledger: metering.storeKind }));
});
const shutdown = () => {
  server.close(() => void metering.close().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
