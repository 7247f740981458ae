import { createServer } from 'node:net';

/**
 * A free loopback TCP port, found by binding port 0 and releasing it. Servers that accept port 0
 * themselves should prefer that (no race); this is for the few that need the number up front.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}
