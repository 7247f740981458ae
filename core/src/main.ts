import { stopOnSignals } from '@retail/contract/stop-signals';
import { ConfigError, loadCoreConfig } from './config.js';
import { createLogger } from './logger.js';
import { createCoreServer } from './server.js';

/**
 * `npm run start:core`: the core alone. SIGTERM/SIGINT stop it gracefully (health NOT_SERVING,
 * in-flight calls finish within the grace period, then a forced shutdown).
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadCoreConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
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
  process.stderr.write(`core failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
