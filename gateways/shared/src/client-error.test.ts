import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { malformedRequests, parseRawResponse, rawRequest } from '../../../test/harness/raw-http.js';
import { answerClientError, answerClientErrorsWithEnvelope, clientErrorRefusal, refusalResponse } from './client-error.js';
import { createGatewayApp } from './deployment.js';

/* The clientError listener on a real server (the standalone gateway app shell) over raw sockets. */
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

/** The gateway app shell on a free port, its routes counted (nothing refused may reach them). */
async function gatewayServer(options: Parameters<typeof createServer>[0] = {}) {
  let routed = 0;
  const app = createGatewayApp({
    router: (req, res, next) => {
      routed++;
      if (req.path === '/slow') return void setTimeout(() => res.json({ slow: true }), 100);
      next();
    },
  });
  const server = answerClientErrorsWithEnvelope(createServer(options, app));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as AddressInfo).port, routed: () => routed, server };
}

describe('clientErrorRefusal', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408],
    ['HPE_INVALID_METHOD', 400],
    ['HPE_INVALID_URL', 400],
    ['HPE_INVALID_HEADER_TOKEN', 400],
    [undefined, 400],
  ])('%s → %d', (code, status) => {
    expect(clientErrorRefusal(Object.assign(new Error('x'), { code })).status).toBe(status);
  });

  it('writes a whole response: status line, JSON envelope, exact length, connection close', () => {
    const answer = parseRawResponse(refusalResponse(431, 'request headers too large'));
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', connection: 'close' });
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toEqual({ success: false, errors: [{ code: 431, message: 'request headers too large' }] });
  });
});

describe('answerClientErrorsWithEnvelope on a real server', () => {
  it.each(malformedRequests('/slow'))('$name → $status with the envelope, then the connection is closed', async ({ payload, status, echo }) => {
    const { port, routed } = await gatewayServer();
    const answer = await rawRequest(port, payload);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(answer.headers.connection).toBe('close');
    const body = JSON.parse(answer.body) as { success: boolean; errors: { code: number; message: string }[] };
    expect(body).toEqual({ success: false, errors: [{ code: status, message: expect.any(String) }] });
    expect(body.errors[0]!.message).not.toContain(echo);
    expect(answer.closedByServer).toBe(true);
    expect(routed()).toBe(0);
  });

  it('a request head that never completes is 408 with the envelope (request timeout)', async () => {
    const { port } = await gatewayServer({ requestTimeout: 200, headersTimeout: 200, connectionsCheckingInterval: 50 });
    const answer = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Partial: ', 5_000);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ success: false, errors: [{ code: 408, message: 'request timeout' }] });
    expect(answer.closedByServer).toBe(true);
  });

  it('after a pipelined request still being answered, the refusal follows its answer in order', async () => {
    const { port, routed } = await gatewayServer();
    const answer = await rawRequest(port, 'GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n\u0001GARBAGE\r\n\r\n');
    expect(routed()).toBe(1);
    const [first, second] = answer.raw.split(/(?=HTTP\/1\.1 )/);
    expect(parseRawResponse(first!).status).toBe(200);
    expect(JSON.parse(parseRawResponse(first!).body)).toEqual({ slow: true });
    expect(parseRawResponse(second!).status).toBe(400);
    expect(JSON.parse(parseRawResponse(second!).body)).toMatchObject({ success: false, errors: [{ code: 400 }] });
    expect(answer.closedByServer).toBe(true);
  });

  it('a peer that sends garbage and never closes its side is still let go by the server', async () => {
    const { port, server } = await gatewayServer();
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write('\u0001GARBAGE\r\n\r\n'));
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('end', r));
    // The answer ended the server's side; the server drops the connection without the peer's help.
    const open = () => new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
    expect(await open()).toBe(1);
    await expect.poll(open, { timeout: 5_000, interval: 100 }).toBe(0);
    socket.destroy();
  });

  it('a socket that cannot be answered is destroyed, not written', () => {
    const calls: string[] = [];
    const socket = { writable: false, destroy: () => calls.push('destroy'), end: () => calls.push('end'), resume: () => calls.push('resume') };
    answerClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), { ...socket, writable: true } as never);
    answerClientError(new Error('gone'), socket as never);
    expect(calls).toEqual(['destroy', 'destroy']);
  });

  it('installs once however often it is asked', async () => {
    const { server } = await gatewayServer();
    answerClientErrorsWithEnvelope(server);
    expect(server.listeners('clientError')).toHaveLength(1);
  });
});
