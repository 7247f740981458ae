import { EnvironmentError } from '@retail/contract/environment';
import { describeStartFailure, type StartSettings } from '@retail/contract/start-failure';
import { probeServers } from '@retail/contract/start-probe';
import { loadAppConfig } from './config.js';

/** The ports `npm start` listens on and the servers it connects to, by the variables that set them. */
function startSettings(env: NodeJS.ProcessEnv): StartSettings {
  const config = loadAppConfig(env);
  const outOfProcess = 'unset it to keep this in the process';
  return {
    ports: [
      { variable: 'PORT', port: config.port, listener: 'HTTP: REST, GraphQL, MCP, console' },
      { variable: 'GRPC_PORT', port: config.grpcPort, listener: 'the gRPC core' },
      { variable: 'WATCHER_GRPC_PORT', port: config.watcher.grpcPort, listener: 'the gRPC watcher' },
    ],
    servers: [
      { variable: 'DATABASE_URL', url: env.DATABASE_URL, otherwise: 'unset it to keep watches and jobs in the embedded PGlite (WATCHER_DATA_DIR)' },
      { variable: 'REDIS_URL', url: env.REDIS_URL, otherwise: outOfProcess },
      { variable: 'LEDGER_REDIS_URL', url: env.LEDGER_REDIS_URL, otherwise: outOfProcess },
      { variable: 'CACHE_REDIS_URL', url: env.CACHE_REDIS_URL, otherwise: outOfProcess },
      { variable: 'QUEUE_REDIS_URL', url: env.QUEUE_REDIS_URL, otherwise: outOfProcess },
    ],
  };
}

/**
 * Runs `npm start`'s (or the demo's) start-up. What the person who started it can fix stops it with
 * exit status 2 and no stack trace, which would bury the name: a bad environment in any part it
 * composes (app, core, console, watcher), one line per problem; a port another process holds, an
 * address that is not this machine's, a server a URL variable names that does not answer, one line
 * naming the variable and what to do. Anything else is a bug and keeps its stack.
 */
export async function exitOnStartFailure<T>(start: () => T | Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (error instanceof EnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    const line = describeStartFailure(error, startSettings(env));
    if (line === undefined) throw error;
    process.stderr.write(`${line}\n`);
    process.exit(2);
  }
}

/**
 * Before `npm start` builds anything on its servers: does each Redis and PostgreSQL its variables name
 * take a connection (one try, a few seconds at most: start-probe.ts)? Run inside exitOnStartFailure, a
 * server that does not stops it with the line that names the variable, instead of the clients retrying.
 */
export function probeStartServers(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return probeServers(startSettings(env).servers);
}
