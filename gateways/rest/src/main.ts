/**
 * The REST gateway deployment. Environment: the common gateway settings (see
 * gateways/shared/src/gateway-settings.ts) and LEDGER_REDIS_URL / REDIS_URL (memory store when neither).
 */
import { createCoreClient, createGatewayLogger, readGatewaySettings, registerMeteringMetrics, serveGateway } from '@retail/gateway-shared';
import { createMeteringFromEnv, meteringCounters } from '@retail/metering';
import { createRestApp } from './app.js';

const env = process.env;
const settings = readGatewaySettings(env);
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
