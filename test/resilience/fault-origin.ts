import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A marketplace stand-in for resilience tests: it sits in front of the replay server (the value of
 * MARKETPLACE_ORIGIN) and, per path, injects the faults the replay server cannot: delays, connection
 * resets and truncated bodies, plus 503s, captchas and redirects. Each fault can be limited to the
 * first N requests, so "fails twice, then works" is one line. Every request is recorded.
 */
export type Fault =
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'reset' }
  | { readonly kind: 'truncate' }
  | { readonly kind: 'status'; readonly status: number; readonly body?: string }
  | { readonly kind: 'captcha' }
  | { readonly kind: 'redirect'; readonly location: string };

export interface FaultOrigin {
  readonly origin: string;
  /** Every request: the marketplace host it was for (X-Forwarded-Host) and its path with query. */
  readonly seen: { host: string; path: string }[];
  /** Injects `fault` for requests to `path` (with its query, as sent): the next `times` of them (default: all). */
  inject(path: string, fault: Fault, times?: number): void;
  clear(): void;
  count(path: string): number;
  close(): Promise<void>;
}

const CAPTCHA = `<!doctype html><html><head><title>Robot Check</title></head><body>
<form method="get" action="/errors/validateCaptcha"><input type="text" id="captchacharacters" name="field-keywords"></form></body></html>`;

export async function createFaultOrigin(replayOrigin: string): Promise<FaultOrigin> {
  const faults = new Map<string, { fault: Fault; left: number }[]>();
  const seen: { host: string; path: string }[] = [];
  const upstream = new URL(replayOrigin);

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const proxied = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on('error', () => res.destroy());
    proxied.end();
  };

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ host: String(req.headers['x-forwarded-host'] ?? req.headers.host), path });
    const queue = faults.get(path) ?? [];
    const current = queue[0];
    if (current && --current.left <= 0) queue.shift();
    const fault = current?.fault;
    switch (fault?.kind) {
      case undefined:
        return forward(req, res);
      case 'delay':
        return void setTimeout(() => (res.destroyed ? undefined : forward(req, res)), fault.ms);
      case 'reset':
        return req.socket.destroy();
      case 'truncate':
        // Promise 100 kB, send a few bytes, then drop the connection.
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
        res.write('<html><body><div id="dp">');
        return void setImmediate(() => req.socket.destroy());
      case 'status':
        res.writeHead(fault.status, { 'content-type': 'text/html' });
        return void res.end(fault.body ?? `<html><body>HTTP ${fault.status}</body></html>`);
      case 'captcha':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(CAPTCHA);
      case 'redirect':
        res.writeHead(302, { location: fault.location });
        return void res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    inject(path, fault, times = Number.POSITIVE_INFINITY) {
      const queue = faults.get(path) ?? [];
      queue.push({ fault, left: times });
      faults.set(path, queue);
    },
    clear: () => faults.clear(),
    count: (path) => seen.filter((s) => s.path === path).length,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
