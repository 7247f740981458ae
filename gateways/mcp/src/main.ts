/**
 * The MCP gateway deployment. Environment: the common gateway settings (see
 * gateways/shared/src/gateway-settings.ts), LEDGER_REDIS_URL / REDIS_URL (memory store when neither),
 * MCP_BODY_LIMIT_BYTES (65536).
 */
import { createCoreClient, positiveSetting, readGatewaySettings, registerMeteringMetrics, serveGateway } from '@retail/gateway-shared';
import { createMeteringFromEnv, meteringCounters } from '@retail/metering';
import { createMcpApp } from './app.js';

const env = process.env;
const settings = readGatewaySettings(env);
const metering = await createMeteringFromEnv(env);
registerMeteringMetrics(meteringCounters);
const core = createCoreClient(settings.core);
const bodyLimitBytes = positiveSetting(env.MCP_BODY_LIMIT_BYTES, 'MCP_BODY_LIMIT_BYTES');
const app = createMcpApp({
  core,
  metering,
  corsOrigins: settings.corsOrigins,
  ...(bodyLimitBytes ? { bodyLimitBytes } : {}),
  ready: async () => (await core.ping()) && (await metering.ready()),
});
serveGateway('mcp gateway', app, settings, { close: () => metering.close(), details: { path: '/api/mcp', ledger: metering.storeKind } });
