import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRawResponse } from '../../../test/harness/raw-http.js';
import { answerClientErrorsWithEnvelope } from './client-error.js';
import { createGatewayApp } from './deployment.js';
import { answerHalfClosedRequests } from './half-close.js';

/* A complete request, then the client's FIN, against a route that answers a little later (like a core call). */
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

async function slowServer(halfOpen: boolean) {
  const app = createGatewayApp({
    router: (req, res, next) => (req.path === '/slow' ? void setTimeout(() => res.json({ slow: true }), 100) : next()),
  });
  const server = answerClientErrorsWithEnvelope(createServer(app));
  if (halfOpen) answerHalfClosedRequests(server);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}

/** Writes `request`, half-closes, and reads until the server closes its side. */
function sendThenHalfClose(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(request));
    const timer = setTimeout(() => reject(new Error('no close within 5 s')), 5_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

const SLOW = 'GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n';

describe('a client that half-closes after its request', () => {
  it('still gets the answer, and then the server closes the connection', async () => {
    const raw = await sendThenHalfClose(await slowServer(true), SLOW);
    const answer = parseRawResponse(raw);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ slow: true });
  });

  it("without it, Node's default reads the FIN as an abort and the answer is lost (what this guards against)", async () => {
    expect(await sendThenHalfClose(await slowServer(false), SLOW)).toBe('');
  });

  it('a request cut short by the FIN is still refused as malformed, not left waiting', async () => {
    const port = await slowServer(true);
    const raw = await sendThenHalfClose(port, 'POST /slow HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n{"a"');
    const answer = parseRawResponse(raw);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, errors: [{ code: 400 }] });
  });
});
