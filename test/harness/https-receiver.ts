/**
 * Test receivers: real HTTPS servers on free loopback ports with a self-signed certificate made by
 * `openssl` at test time (no private key is ever committed). The certificate names `localhost`,
 * `receiver.test` (a name only the tests' resolver knows) and 127.0.0.1; the sender trusts it through
 * its test-only `trustedCa` option.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

export const TEST_CERT_NAMES = ['localhost', 'receiver.test'];

export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-cert-'));
  try {
    const san = [...TEST_CERT_NAMES.map((name) => `DNS:${name}`), 'IP:127.0.0.1'].join(',');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=webhook test receiver', '-addext', `subjectAltName=${san}`,
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'pipe' });
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The TLS server name the client sent (SNI). */
  readonly servername: string | false;
}

export type ReceiverHandler = (request: ReceivedRequest, response: ServerResponse) => void;

export interface TestReceiver {
  readonly port: number;
  readonly received: ReceivedRequest[];
  /** TCP connections accepted, whether or not a request followed. */
  readonly connections: () => number;
  close(): Promise<void>;
}

function flatHeaders(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Answers 204 unless the handler says otherwise. */
export async function startTestReceiver(certificate: TestCertificate, handler?: ReceiverHandler): Promise<TestReceiver> {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server: Server = createServer({ cert: certificate.cert, key: certificate.key }, (message, response) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => {
      const request: ReceivedRequest = {
        method: message.method ?? '',
        url: message.url ?? '',
        headers: flatHeaders(message),
        body: Buffer.concat(chunks).toString('utf8'),
        servername: (message.socket as TLSSocket).servername ?? false,
      };
      received.push(request);
      if (handler) handler(request, response);
      else response.writeHead(204).end();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
