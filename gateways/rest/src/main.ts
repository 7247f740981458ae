/**
 * The REST gateway deployment. Environment: the common gateway settings (see
 * gateways/shared/src/gateway-settings.ts) and LEDGER_REDIS_URL / REDIS_URL (memory store when neither).
 */
import { createCoreClient, createGatewayLogger, readGatewaySettings, registerMeteringMetrics, serveGateway } from '@retail/gateway-shared';
import { probeServersOrExit } from '@retail/contract/start-probe';
import { createMeteringFromEnv, meteringCounters } from '@retail/metering';
import { meteringServers } from '@retail/metering/servers';
import { createRestApp } from './app.js';

const env = process.env;
const settings = readGatewaySettings(env);
// A ledger Redis that does not take a connection stops the gateway here (one line, exit 2), not a "listening" that cannot charge.
await probeServersOrExit(meteringServers(env));
const metering = await createMeteringFromEnv(env);
registerMeteringMetrics(meteringCounters);
const core = createCoreClient(settings.core);
const logger = createGatewayLogger('rest-gateway');
const app = createRestApp({
  core,
  metering,
  corsOrigins: settings.corsOrigins,
  logger,
  accessLog: logger,
  ready: async () => (await core.ping()) && (await metering.ready()),
});
serveGateway('rest gateway', app, settings, { close: () => metering.close(), details: { ledger: metering.storeKind } });
