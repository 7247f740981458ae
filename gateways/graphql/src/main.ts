/**
 * The GraphQL gateway deployment. Environment: the common gateway settings (see
 * gateways/shared/src/deployment.ts), LEDGER_REDIS_URL / REDIS_URL (memory store when neither),
 * GRAPHQL_MAX_OPERATIONS (10), GRAPHQL_MAX_DEPTH (10), GRAPHQL_BODY_LIMIT_BYTES (65536),
 * GRAPHQL_LANDING_PAGE (`false` turns off GraphiQL on a browser's GET; on by default).
 */
import { createCoreClient, positiveSetting, readGatewaySettings, registerMeteringMetrics, serveGateway } from '@retail/gateway-shared';
import { probeServersOrExit } from '@retail/contract/start-probe';
import { createMeteringFromEnv, meteringCounters } from '@retail/metering';
import { meteringServers } from '@retail/metering/servers';
import { createGraphqlApp } from './app.js';

const env = process.env;
const settings = readGatewaySettings(env);
// A ledger Redis that does not take a connection stops the gateway here (one line, exit 2), not a "listening" that cannot charge.
await probeServersOrExit(meteringServers(env));
const metering = await createMeteringFromEnv(env);
registerMeteringMetrics(meteringCounters);
const core = createCoreClient(settings.core);
const maxOperations = positiveSetting(env.GRAPHQL_MAX_OPERATIONS);
const maxDepth = positiveSetting(env.GRAPHQL_MAX_DEPTH);
const bodyLimitBytes = positiveSetting(env.GRAPHQL_BODY_LIMIT_BYTES);
const app = await createGraphqlApp({
  core,
  metering,
  corsOrigins: settings.corsOrigins,
  ...(maxOperations ? { maxOperations } : {}),
  ...(maxDepth ? { maxDepth } : {}),
  ...(bodyLimitBytes ? { bodyLimitBytes } : {}),
  landingPage: env.GRAPHQL_LANDING_PAGE !== 'false',
  ready: async () => (await core.ping()) && (await metering.ready()),
});
serveGateway('graphql gateway', app, settings, { close: () => metering.close(), details: { path: '/api/graphql', ledger: metering.storeKind } });
