import { describeStartFailure, type StartSettings } from '@retail/contract/start-failure';
import { probeServersOrExit } from '@retail/contract/start-probe';
import { stopOnSignals } from '@retail/contract/stop-signals';
import { ConfigError, type CoreConfig, loadCoreConfig } from './config.js';
import { createLogger } from './logger.js';
import { createCoreServer } from './server.js';

/**
 * `npm run start:core`: the core alone. SIGTERM/SIGINT stop it gracefully (health NOT_SERVING,
 * in-flight calls finish within the grace period, then a forced shutdown). What the person who started
 * it can fix (a bad variable, a port another process holds, a Redis that does not take a connection at
 * start: start-probe.ts) stops it with one line and exit status 2, as `npm start` does; anything else
 * keeps its stack.
 */
function readConfig(): CoreConfig {
  try {
    return loadCoreConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

const config = readConfig();

/** The port it listens on and the Redis it connects to, by the variables that set them. */
const startSettings: StartSettings = {
  ports: [{ variable: 'GRPC_PORT', port: config.grpcPort, listener: 'the gRPC core' }],
  // The page cache's Redis: CACHE_REDIS_URL, else REDIS_URL (config.ts); only the one in use is probed.
  servers: [
    process.env.CACHE_REDIS_URL?.trim()
      ? { variable: 'CACHE_REDIS_URL', url: process.env.CACHE_REDIS_URL, otherwise: 'unset it to keep the page cache in memory' }
      : { variable: 'REDIS_URL', url: process.env.REDIS_URL, otherwise: 'unset it to keep the page cache in memory' },
  ],
};
// A Redis URL that points nowhere stops the core here, rather than ioredis retrying behind a "listening".
await probeServersOrExit(startSettings.servers);

async function main(): Promise<void> {
  const logger = createLogger(config.logLevel);
  const core = createCoreServer({ config, logger });
  const { port } = await core.start();
  const target = `${config.grpcHost === '0.0.0.0' ? '127.0.0.1' : config.grpcHost}:${port}`;
  process.stdout.write(
    [
      `retail core listening on ${target} (gRPC, plaintext; upstream: ${config.marketplaceOrigin ?? 'the marketplace'})`,
      'Try it:',
      `  grpcurl -plaintext ${target} grpc.health.v1.Health/Check`,
      `  grpcurl -plaintext -H "authorization: Bearer $SERVICE_TOKEN" ${target} list`,
      `  grpcurl -plaintext -H "authorization: Bearer $SERVICE_TOKEN" -d '{"asin":"B08N5WRWNW","domain":"DOMAIN_US"}' ${target} retail.v1.RetailService/GetProduct`,
      '',
    ].join('\n'),
  );
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await core.stop({ graceMs: 10_000 });
  };
  stopOnSignals(stop, (error) => logger.error({ err: error }, 'shutdown failed'));
}

main().catch((error: unknown) => {
  const line = describeStartFailure(error, startSettings);
  if (line === undefined) throw error;
  process.stderr.write(`${line}\n`);
  process.exit(2);
});
