/**
 * Before a process builds anything on its Redis and PostgreSQL servers: does each server its URL
 * variables name take a connection? Without this a URL that points nowhere leaves the process up and
 * silent (ioredis and BullMQ retry for ever, a gateway listens and reports "ready" while its ledger
 * cannot charge), which is right for a server that blinks in production and wrong at start: the pod's
 * log should say which variable is wrong and the pod restart with back-off.
 *
 * One TCP connection per server, no retry, a few seconds at most, no protocol spoken: every process
 * can run it without a Redis or PostgreSQL client (the core has no PostgreSQL one, the contract
 * neither), and the clients that follow report what only a conversation shows (a wrong password) in
 * their own words. After a successful start nothing here runs again: a later outage is the clients'
 * and readiness's business.
 */
import { connect } from 'node:net';
import { defaultPort, describeStartFailure, ServerUnreachableError, type ServerSetting } from './start-failure.js';

/** How long one server gets to take the connection: long enough for a cold DNS, short for a pod's log. */
export const START_PROBE_TIMEOUT_MS = 5_000;

/** Where a URL points (`host:port`, never the user or password), or undefined when it is not a URL to probe. */
function addressOf(url: string): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port || defaultPort(parsed.protocol));
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    // A Unix socket (postgres://…?host=/run/postgresql) has no host in the URL: the client finds it.
    return host && port ? { host, port } : undefined;
  } catch {
    return undefined;
  }
}

/** Node's code for why the connection failed (an AggregateError when a name resolves to several addresses). */
function codeOf(error: unknown): string {
  const { code, errors } = error as { code?: string; errors?: unknown[] };
  return code ?? (errors?.length ? codeOf(errors[0]) : 'ECONNREFUSED');
}

function knock(server: ServerSetting, host: string, port: number, timeoutMs: number): Promise<void> {
  const address = `${host}:${port}`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (code: string) => {
      clearTimeout(timer);
      socket.destroy();
      // The ledger's record is optional at start: only a name that does not exist is a wrong URL.
      if (server.optionalAtStart && code !== 'ENOTFOUND') resolve();
      else reject(new ServerUnreachableError(server, code, address));
    };
    const timer = setTimeout(() => fail('ETIMEDOUT'), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once('error', (error) => fail(codeOf(error)));
  });
}

/**
 * Resolves when every server the settings name (those with a URL) takes a connection; rejects with a
 * ServerUnreachableError for the first, in the order given, that does not. The servers are tried
 * together, so the whole probe takes one timeout at most.
 */
export async function probeServers(servers: readonly ServerSetting[], timeoutMs = START_PROBE_TIMEOUT_MS): Promise<void> {
  const seen = new Set<string>();
  const knocks = servers.flatMap((server) => {
    if (seen.has(server.variable)) return []; // REDIS_URL may back several roles: one knock
    seen.add(server.variable);
    const address = server.url?.trim() ? addressOf(server.url.trim()) : undefined;
    return address ? [knock(server, address.host, address.port, timeoutMs)] : [];
  });
  const outcomes = await Promise.allSettled(knocks);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * probeServers for a process's entry point: a server that does not answer stops it with one line on
 * stderr (start-failure.ts) and exit status 2, as a bad variable does.
 */
export async function probeServersOrExit(servers: readonly ServerSetting[], timeoutMs = START_PROBE_TIMEOUT_MS): Promise<void> {
  try {
    await probeServers(servers, timeoutMs);
  } catch (error) {
    if (!(error instanceof ServerUnreachableError)) throw error;
    process.stderr.write(`${describeStartFailure(error, { ports: [], servers: [] })}\n`);
    process.exit(2);
  }
}
