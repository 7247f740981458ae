/**
 * The REST gateway deployment (gateways/rest/src/main.ts) with one change for the crash test: the
 * hold TTL comes from CHAOS_HOLD_TTL_MS. The deployment has no setting for it (holds live 60 s), and
 * a test that waits a minute for orphaned holds to come back would not be a bounded tier.
 */
import { createCoreClient, readGatewaySettings, serveGateway } from '@retail/gateway-shared';
import { createMeteringFromEnv } from '@retail/metering';
import { createRestApp } from '@retail/rest';

const env = process.env;
const settings = readGatewaySettings(env);
const holdTtlMs = Number(env.CHAOS_HOLD_TTL_MS);
if (!Number.isSafeInteger(holdTtlMs) || holdTtlMs <= 0) throw new Error('CHAOS_HOLD_TTL_MS must be a positive integer');
const metering = await createMeteringFromEnv(env, { holdTtlMs });
const core = createCoreClient(settings.core);
const app = createRestApp({ core, metering, corsOrigins: [], ready: async () => (await core.ping()) && (await metering.ready()) });
serveGateway('rest gateway', app, settings, { close: () => metering.close(), details: { ledger: metering.storeKind } });
