/**
 * What a person who started a deployable can do about a failure at start, in one line: a port some
 * other process holds, an address that is not this machine's, a server a URL variable names that does
 * not answer. The error texts are Node's (`listen EADDRINUSE: address already in use 127.0.0.1:8080`,
 * `connect ECONNREFUSED 127.0.0.1:5432`), which grpc-js and the database and Redis clients pass on
 * inside their own messages; a failure this does not recognise keeps its stack trace, since only a
 * developer can act on it.
 */

/** A variable that sets a port this process listens on, with what listens there. */
export interface PortSetting {
  readonly variable: string;
  readonly port: number;
  readonly listener: string;
}

/** A variable holding the URL of a server this process connects to at start. */
export interface ServerSetting {
  readonly variable: string;
  readonly url: string | undefined;
  /** What to do instead, e.g. "unset it to use the embedded PGlite". */
  readonly otherwise: string;
  /**
   * The process serves without this server and connects when it comes (the ledger's record,
   * docs/metering.md): the start probe (start-probe.ts) stops it only for a host name that does not
   * exist, which is a wrong URL, not an outage.
   */
  readonly optionalAtStart?: boolean;
}

export interface StartSettings {
  readonly ports: readonly PortSetting[];
  readonly servers: readonly ServerSetting[];
}

/**
 * A server a URL variable names that did not answer the start probe (start-probe.ts). The message is
 * Node's own words with the address only: never the URL, which may carry a password.
 */
export class ServerUnreachableError extends Error {
  constructor(
    readonly server: ServerSetting,
    readonly code: string,
    /** host:port, no credentials. */
    readonly address: string,
  ) {
    super(`connect ${code} ${address}`);
    this.name = 'ServerUnreachableError';
  }
}

/** The one line for a server that does not answer: the variable, the code and the address, what to do. */
function serverDoesNotAnswer(server: ServerSetting, code: string, where: string): string {
  return `${server.variable} names a server that does not answer (${code} ${where}): start it, correct ${server.variable}, or ${server.otherwise}`;
}

function messagesOf(error: unknown): string {
  if (error instanceof AggregateError) return [error.message, ...error.errors.map(messagesOf)].join('\n');
  return error instanceof Error ? error.message : String(error);
}

export const defaultPort = (protocol: string) => ({ 'postgres:': '5432', 'postgresql:': '5432', 'redis:': '6379', 'rediss:': '6379' })[protocol] ?? '';

/** Whether `address` (host:port, or only a port) is the server the URL names. */
function names(url: string | undefined, host: string | undefined, port: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    const wantPort = parsed.port || defaultPort(parsed.protocol);
    return wantPort === port && (host === undefined || parsed.hostname.replace(/^\[|\]$/g, '') === host || ['localhost', '127.0.0.1', '::1'].includes(host));
  } catch {
    return false;
  }
}

export function describeStartFailure(error: unknown, settings: StartSettings): string | undefined {
  if (error instanceof ServerUnreachableError) return serverDoesNotAnswer(error.server, error.code, error.address);
  const text = messagesOf(error);
  const listen = /listen (EADDRINUSE|EACCES|EADDRNOTAVAIL)[^\n]*\s([^\s\]]+?)(?::(\d+))?(?:\]|$)/m.exec(text);
  if (listen) {
    const [, code, host, portText] = listen;
    if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine, so nothing can listen there: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for every interface)`;
    const port = Number(portText);
    const setting = settings.ports.find((p) => p.port === port);
    const which = setting ? `port ${port} (${setting.variable}, ${setting.listener})` : `port ${port}`;
    const change = setting ? `set ${setting.variable} to another port (0 picks a free one)` : 'choose another port';
    if (code === 'EADDRINUSE') return `${which} is already in use on ${host}: stop the process that listens there (ss -ltnp 'sport = :${port}') or ${change}`;
    return `${which} needs privileges this process lacks: ${change} (above 1023)`;
  }
  const connect = /(?:connect|getaddrinfo) (ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|EAI_AGAIN) (\S+?)(?::(\d+))?(?:\s|$)/.exec(text);
  if (connect) {
    const [, code, host, port] = connect;
    const server = settings.servers.find((s) => (port ? names(s.url, host, port) : s.url?.includes(host!)));
    const where = port ? `${host}:${port}` : host;
    if (server) return serverDoesNotAnswer(server, code!, where!);
  }
  return undefined;
}
