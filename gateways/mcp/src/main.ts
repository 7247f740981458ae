/**
 * The MCP gateway deployment. Environment: the common gateway settings (see
 * gateways/shared/src/gateway-settings.ts), LEDGER_REDIS_URL / REDIS_URL (memory store when neither),
 * MCP_BODY_LIMIT_BYTES (65536), MCP_TOOLSETS (the toolsets tools/list answers by default: lookup,search)
 * and MCP_OUTPUT_SCHEMAS (whether it carries output schemas by default: false).
 */
import { createCoreClient, positiveSetting, readGatewaySettings, registerMeteringMetrics, serveGateway, settingsOrExit } from '@retail/gateway-shared';
import { probeServersOrExit } from '@retail/contract/start-probe';
import { createMeteringFromEnv, meteringCounters } from '@retail/metering';
import { meteringServers } from '@retail/metering/servers';
import { createMcpApp } from './app.js';
import { listingSettingsOf } from './listing-settings.js';

const env = process.env;
const settings = readGatewaySettings(env);
// A ledger Redis that does not take a connection stops the gateway here (one line, exit 2), not a "listening" that cannot charge.
await probeServersOrExit(meteringServers(env));
const metering = await createMeteringFromEnv(env);
registerMeteringMetrics(meteringCounters);
const core = createCoreClient(settings.core);
const bodyLimitBytes = positiveSetting(env.MCP_BODY_LIMIT_BYTES, 'MCP_BODY_LIMIT_BYTES');
const app = createMcpApp({
  core,
  ...settingsOrExit(() => listingSettingsOf(env)),
  metering,
  corsOrigins: settings.corsOrigins,
  ...(bodyLimitBytes ? { bodyLimitBytes } : {}),
  ready: async () => (await core.ping()) && (await metering.ready()),
});
serveGateway('mcp gateway', app, settings, { close: () => metering.close(), details: { path: '/api/mcp', ledger: metering.storeKind } });
