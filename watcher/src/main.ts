/**
 * `npm run start:watcher`: the watcher deployable. WATCHER_ROLE=all (default) serves the WatchService
 * over gRPC (GRPC_PORT, default 50052) and runs the workers; `api` and `worker` split them so each
 * scales on its own. Probes: GET /healthz and /readyz on PORT (default 8080). SIGTERM/SIGINT stop it
 * gracefully: /readyz turns 503, the server and workers take nothing new, running jobs get
 * WATCHER_SHUTDOWN_GRACE_MS to finish (a job cut short runs again elsewhere: every job is idempotent),
 * then the queues, the ledger and the store close. What the person who started it can fix (a bad
 * variable, a port another process holds, a server a URL names that does not answer) stops it with one
 * line and exit status 2, as `npm start` does; anything else keeps its stack.
 */
import { describeStartFailure, type ServerSetting, type StartSettings } from '@retail/contract/start-failure';
import { probeServersOrExit } from '@retail/contract/start-probe';
import { meteringServers } from '@retail/metering/servers';
import { stopOnSignals } from '@retail/contract/stop-signals';
import { loadWatcherConfig, WatcherConfigError } from './config.js';
import { startHealthServer, startWatcher } from './workers/index.js';

const log = (message: string) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), service: 'watcher', message })}\n`);

function readConfig() {
  try {
    return loadWatcherConfig();
  } catch (error) {
    if (!(error instanceof WatcherConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

const config = readConfig();

/** The first of `variables` that is set: the one the watcher uses of a fallback chain. */
function inUse(variables: readonly string[], otherwise: string): ServerSetting[] {
  const variable = variables.find((name) => process.env[name]?.trim()) ?? variables[0]!;
  return [{ variable, url: process.env[variable], otherwise }];
}

/** The ports it listens on and the servers it connects to, by the variables that set them. */
const startSettings: StartSettings = {
  ports: [
    { variable: 'GRPC_PORT', port: config.grpcPort, listener: 'the gRPC watcher' },
    { variable: 'PORT', port: config.healthPort, listener: 'the watcher\'s probes' },
  ],
  servers: [
    { variable: 'DATABASE_URL', url: process.env.DATABASE_URL, otherwise: 'set WATCHER_DATA_DIR instead for the embedded PGlite' },
    // The queues' Redis is the first of these set (docs/engineering-watches.md, "Which Redis").
    ...inUse(['QUEUE_REDIS_URL', 'LEDGER_REDIS_URL', 'REDIS_URL'], 'unset it (with no Redis URL at all the queues and the ledger stay in this process)'),
    // The page archive's hand-off from the core (archive/start-page-archive.ts).
    ...inUse(['CACHE_REDIS_URL', 'REDIS_URL'], 'unset it (with no Redis URL at all the page archive\'s hand-off stays in this process)'),
    ...meteringServers(process.env),
  ],
};
// A server that does not take a connection stops the watcher here, rather than BullMQ and ioredis
// retrying behind a "started" (a blackholed PostgreSQL would hang the migrations for minutes).
await probeServersOrExit(startSettings.servers);

async function main(): Promise<void> {
  const watcher = await startWatcher({ config, env: process.env, log });
  const health = await startHealthServer({ host: config.healthHost, port: config.healthPort, ready: () => watcher.ready() });
  log(`watcher started (role ${config.role}${watcher.grpcAddress ? `, WatchService on ${watcher.grpcAddress}` : ''}, probes on :${health.port})`);

  const stop = async (signal: string) => {
    log(`${signal}: shutting down`);
    health.draining();
    const grace = new Promise<'grace'>((resolve) => setTimeout(() => resolve('grace'), config.shutdownGraceMs).unref());
    const outcome = await Promise.race([watcher.stop().then(() => 'stopped' as const), grace]);
    if (outcome === 'grace') log('grace period over: exiting with jobs still running (they run again elsewhere)');
    await health.close();
  };
  stopOnSignals(stop, (error) => log(`shutdown failed: ${(error as Error).message}`));
}

main().catch((error: unknown) => {
  const line = describeStartFailure(error, startSettings);
  if (line === undefined) throw error;
  process.stderr.write(`${line}\n`);
  process.exit(2);
});
