import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A minimal HTTP CONNECT proxy (what undici's ProxyAgent speaks) for proxy-rotation tests: it
 * tunnels to the requested host:port (or where `route` sends it: a marketplace host mapped to a
 * loopback server) and records each CONNECT target as requested.
 */
export interface TestProxy {
  readonly url: string;
  readonly connects: string[];
  close(): Promise<void>;
}

export type ConnectRoute = (host: string, port: number) => { host: string; port: number };

export async function createConnectProxy(route: ConnectRoute = (host, port) => ({ host, port })): Promise<TestProxy> {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(405);
    res.end();
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const target = route(host ?? '', Number(port));
    const upstream = connect(target.port, target.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
