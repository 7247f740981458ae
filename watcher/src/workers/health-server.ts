/**
 * The watcher's probes over HTTP, on every role (a worker-only replica has no gRPC server to carry
 * grpc.health.v1): GET /healthz answers 200 while the process runs (liveness), GET /readyz 200 when
 * the store, the job system and the ledger answer and the process is not stopping, else 503. Same
 * paths and JSON as the gateways' probes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthServer {
  readonly port: number;
  /** From now on /readyz answers 503, so the Service stops sending while the process drains. */
  draining(): void;
  close(): Promise<void>;
}

export async function startHealthServer(options: { host: string; port: number; ready: () => Promise<boolean> }): Promise<HealthServer> {
  let stopping = false;
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, { status: 'method not allowed' });
    if (path === '/healthz') return answer(200, { status: 'ok' });
    if (path === '/readyz') {
      if (stopping) return answer(503, { status: 'stopping' });
      options.ready().then(
        (ready) => answer(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready' }),
        () => answer(503, { status: 'not ready' }),
      );
      return;
    }
    answer(404, { status: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    draining: () => void (stopping = true),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
