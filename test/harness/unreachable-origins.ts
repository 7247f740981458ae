/**
 * Marketplace origins that fail in each way a real network does, on real sockets (nothing mocked):
 * a loopback port nobody listens on (connection refused), a host under `.invalid`, which never
 * resolves (RFC 6761; DNS lookup failed), an HTTPS server with a certificate nobody trusts (TLS
 * failure), and a server that accepts connections and never answers (timeout). Each is a
 * MARKETPLACE_ORIGIN for the upstream client or a core.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

const tls = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));

export type UnreachableKind = 'refused' | 'dns' | 'tls' | 'silent';

export interface UnreachableOrigins {
  readonly origins: Readonly<Record<UnreachableKind, string>>;
  close(): Promise<void>;
}

async function listening<T extends Server>(server: T): Promise<T> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}

export async function startUnreachableOrigins(): Promise<UnreachableOrigins> {
  const sockets = new Set<Socket>();
  const keep = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  // The self-signed test certificate (test/fixtures/tls), which the upstream client does not trust.
  const badCertificate = await listening(
    createHttpsServer({ key: readFileSync(`${tls}marketplace-test.key`), cert: readFileSync(`${tls}marketplace-test.crt`) }, (_req, res) => res.end('never reached')),
  );
  badCertificate.on('connection', keep);
  const silent = await listening(createTcpServer(keep));
  const port = (server: Server) => (server.address() as AddressInfo).port;
  return {
    origins: {
      refused: `http://127.0.0.1:${await freePort()}`,
      dns: 'http://marketplace.invalid',
      tls: `https://127.0.0.1:${port(badCertificate)}`,
      silent: `http://127.0.0.1:${port(silent)}`,
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([badCertificate, silent].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
