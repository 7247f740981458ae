/**
 * Before `npm start` builds anything on Redis: does each Redis its variables name answer? Without this,
 * a URL that points nowhere leaves the process up and silent while the Redis clients (the ledger, the
 * page cache, BullMQ) retry for ever, which is right for a server that blinks in production and wrong
 * at start, where the person who typed the URL is waiting. One PING, no retry, a few seconds at most;
 * a failure is rethrown in Node's own words (`connect ECONNREFUSED host:port`) so that
 * describeStartFailure names the variable (exit-on-start-failure.ts).
 */
import { Redis } from 'ioredis';

/** The variables of `npm start` that name a Redis, in the order they are checked. */
export const REDIS_VARIABLES = ['REDIS_URL', 'LEDGER_REDIS_URL', 'CACHE_REDIS_URL', 'QUEUE_REDIS_URL'] as const;

const PROBE_TIMEOUT_MS = 5_000;

async function ping(url: string): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null, // one attempt: the clients that follow do the retrying
    enableOfflineQueue: false,
  });
  // The socket's error (ECONNREFUSED, ENOTFOUND…) comes as an event; connect() then only says
  // "Connection is closed". Kept to be the one reported, and no "Unhandled error event" printed.
  let socketError: unknown;
  client.on('error', (error) => (socketError ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (rejection) {
    const error = socketError ?? rejection;
    const { hostname, port } = new URL(url);
    const code = (error as { code?: string }).code ?? ((error as Error).message.includes('ETIMEDOUT') ? 'ETIMEDOUT' : undefined);
    // ioredis says only "connect ETIMEDOUT" on a timeout: add the address describeStartFailure matches on.
    if (code && !(error as Error).message.includes(hostname)) {
      throw new Error(`connect ${code} ${hostname}:${port || '6379'}`, { cause: rejection });
    }
    throw error;
  } finally {
    client.disconnect();
  }
}

/** Resolves when every Redis the environment names answers a PING; rejects with the first that does not. */
export async function probeRedisServers(env: NodeJS.ProcessEnv): Promise<void> {
  const urls = new Set(REDIS_VARIABLES.map((variable) => env[variable]?.trim()).filter((url): url is string => Boolean(url)));
  for (const url of urls) await ping(url);
}
