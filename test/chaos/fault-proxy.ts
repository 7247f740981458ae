/**
 * The marketplace as the chaos tier meets it: an HTTP proxy in front of the replay server (the
 * core's MARKETPLACE_ORIGIN) that answers each upstream request either with the replayed page or
 * with a fault chosen by a plan (seeded, or per request). Unlike test/resilience/fault-origin.ts,
 * which injects faults by path for single-case tests, this one decides per request and counts
 * what it injected, so load tests can quote the figures.
 *
 * Redirect faults point at `/chaos-hop/<kind>/<original path>`: when the core follows one, the hop
 * arrives here with its target host in X-Forwarded-Host (the core keeps the marketplace host,
 * port included, in that header), so the proxy can tell a legitimate same-origin follow from a
 * forbidden one without anything leaving loopback. A forbidden follow is answered with the real
 * page, as a wrong-port or foreign server could do, so a product that follows it visibly succeeds.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type SeededRandom, seededRandom } from './seeded-random.js';

export const FAULT_KINDS = [
  'unavailable',
  'slow',
  'reset',
  'captcha',
  'truncated',
  'redirect-other-marketplace',
  'redirect-foreign-host',
  'redirect-other-port',
] as const;

/** The faults above, plus a redirect the product must follow (same host, same default port). */
export type Fault = (typeof FAULT_KINDS)[number] | 'redirect-same-origin';

/** What a plan sees of one upstream request. */
export interface UpstreamRequest {
  /** The marketplace host the core asked for (X-Forwarded-Host), with a port when the URL had one. */
  readonly host: string;
  /** Path and query as sent. */
  readonly path: string;
}

export type FaultPlan = (request: UpstreamRequest) => Fault | undefined;

/** Every request faulted with probability `rate`, the kind drawn uniformly from `kinds`. */
export function seededFaultPlan(seed: number, rate: number, kinds: readonly Fault[] = FAULT_KINDS): FaultPlan {
  const random: SeededRandom = seededRandom(seed);
  return () => (random.next() < rate ? random.pick(kinds) : undefined);
}

export interface FaultProxyOptions {
  readonly replayOrigin: string;
  readonly plan?: FaultPlan;
  /** How long a `slow` answer waits before the page is sent; set it past the core's deadline. */
  readonly slowMs?: number;
}

export interface FollowedHop {
  readonly kind: string;
  readonly host: string;
  readonly path: string;
}

export interface FaultProxy {
  readonly origin: string;
  readonly port: number;
  /** Upstream requests seen (hops included). */
  readonly requests: () => number;
  /** Faults injected, per kind. */
  readonly injected: Readonly<Record<string, number>>;
  totalInjected(): number;
  /** Redirects the core followed although they left the marketplace origin (must stay empty). */
  readonly forbiddenFollows: readonly FollowedHop[];
  /** Same-origin redirects the core followed (the redirect path still works). */
  sameOriginFollows(): number;
  /** `slow` answers still waiting: upstream requests of calls that are in flight right now. */
  delayedInFlight(): number;
  /**
   * From now on answers nothing: every request (new, or a slow one whose delay ends) waits until the
   * proxy closes. A test that kills a process then knows no call can be between its upstream answer
   * and its response.
   */
  holdAll(): void;
  setPlan(plan: FaultPlan | undefined): void;
  close(): Promise<void>;
}

const HOP_PREFIX = '/chaos-hop/';

const ROBOT_CHECK = `<!doctype html><html><head><title>Robot Check</title></head><body>
<p>Enter the characters you see below</p>
<form method="get" action="/errors/validateCaptcha"><input type="text" id="captchacharacters" name="field-keywords"></form>
</body></html>`;

const OUTAGE = '<!doctype html><html><head><title>Service Unavailable</title></head><body>Service Unavailable</body></html>';

/** Another marketplace's storefront than the one asked for. */
function otherMarketplaceHost(host: string): string {
  return host.endsWith('amazon.de') ? 'www.amazon.com' : 'www.amazon.de';
}

export async function createFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const replay = new URL(options.replayOrigin);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const slowMs = options.slowMs ?? 2_000;
  let plan = options.plan;
  let requests = 0;
  let sameOrigin = 0;
  const injected: Record<string, number> = {};
  const forbiddenFollows: FollowedHop[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let port = 0;
  let holding = false;
  let held = 0;

  const forward = (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (holding) {
      held++;
      return;
    }
    const proxied = httpRequest(
      { host: replay.hostname, port: replay.port, path, method: 'GET', headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on('error', () => res.destroy());
    proxied.end();
  };

  const answerHop = (req: IncomingMessage, res: ServerResponse, host: string, rest: string) => {
    const slash = rest.indexOf('/');
    const kind = slash > 0 ? rest.slice(0, slash) : rest;
    const path = slash > 0 ? rest.slice(slash) : '/';
    if (kind === 'redirect-same-origin' && !host.includes(':')) sameOrigin++;
    else forbiddenFollows.push({ kind, host, path });
    forward(req, res, path);
  };

  const redirect = (res: ServerResponse, target: string) => {
    res.writeHead(302, { location: target, 'content-length': '0' });
    res.end();
  };

  const inject = (fault: Fault, req: IncomingMessage, res: ServerResponse, host: string, path: string) => {
    injected[fault] = (injected[fault] ?? 0) + 1;
    const hop = (kind: Fault) => `${HOP_PREFIX}${kind}${path}`;
    switch (fault) {
      case 'unavailable':
        res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(OUTAGE)) });
        return void res.end(OUTAGE);
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) forward(req, res, path);
        }, slowMs);
        timers.add(timer);
        return;
      }
      case 'reset':
        // An RST, not a FIN: what a dropped connection looks like from the client.
        return void req.socket.resetAndDestroy();
      case 'captcha':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(ROBOT_CHECK)) });
        return void res.end(ROBOT_CHECK);
      case 'truncated':
        // Promises 100 kB, sends a fragment, then drops the connection.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': '100000' });
        res.write('<!doctype html><html><head><title>Product</title></head><body><div id="dp">');
        return void setImmediate(() => req.socket.destroy());
      case 'redirect-same-origin':
        return redirect(res, `https://${host}${hop(fault)}`);
      case 'redirect-other-marketplace':
        return redirect(res, `https://${otherMarketplaceHost(host)}${hop(fault)}`);
      case 'redirect-foreign-host':
        return redirect(res, `https://chaos-foreign.invalid${hop(fault)}`);
      case 'redirect-other-port':
        return redirect(res, `https://${host.replace(/:\d+$/, '')}:${port}${hop(fault)}`);
    }
  };

  const server = createServer((req, res) => {
    requests++;
    const forwarded = req.headers['x-forwarded-host'];
    const host = (Array.isArray(forwarded) ? forwarded[0] : forwarded) ?? req.headers.host ?? '';
    const path = req.url ?? '/';
    // Hops are never faulted again: one fault per call keeps the figures countable.
    if (path.startsWith(HOP_PREFIX)) return answerHop(req, res, host, path.slice(HOP_PREFIX.length));
    const fault = plan?.({ host, path });
    if (fault) return inject(fault, req, res, host, path);
    forward(req, res, path);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;

  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests: () => requests,
    injected,
    totalInjected: () => Object.values(injected).reduce((a, b) => a + b, 0),
    forbiddenFollows,
    sameOriginFollows: () => sameOrigin,
    delayedInFlight: () => timers.size + held,
    holdAll() {
      holding = true;
    },
    setPlan(next) {
      plan = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
