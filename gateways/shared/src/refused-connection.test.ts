import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRawResponse, rawRequest } from '../../../test/harness/raw-http.js';
import { answerClientErrorsWithEnvelope } from './client-error.js';
import { createGatewayApp } from './deployment.js';

/*
 * A malformed chunked body arrives after a good head: the parser fails inside a request the app
 * already holds. The app either waits for the body (and must not leave the client hanging) or has
 * answered already (and must not be followed by a second, unrequested answer).
 */
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

async function gatewayServer() {
  const reached: string[] = [];
  const router = express.Router();
  // Reads the body like every JSON endpoint (express.json) before doing anything with the request.
  router.post('/reads-body', express.json({ type: () => true }), (req, res) => {
    reached.push('reads-body handler');
    res.json({ body: req.body });
  });
  // Answers from the head alone, like REST's 405 for POST.
  router.post('/answers-at-once', (_req, res) => void res.status(405).set('Allow', 'GET').json({ success: false, errors: [{ code: 405, message: 'use GET' }] }));
  const server = answerClientErrorsWithEnvelope(createServer(createGatewayApp({ router })));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as AddressInfo).port, reached };
}

const BAD_BODIES = [
  ['chunk size zz', 'Transfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ['chunk size -1', 'Transfer-Encoding: chunked\r\n\r\n-1\r\n'],
  ['chunk size over 64 bits', 'Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n'],
  ['gzip, chunked framing of a plain body', 'Transfer-Encoding: gzip, chunked\r\n\r\n{}'],
] as const;

const post = (path: string, framing: string) => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${framing}`;
const responsesIn = (raw: string) => raw.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => part.startsWith('HTTP/1.1 '));

describe('a malformed body on a request the app already holds', () => {
  it.each(BAD_BODIES)('%s, while the app waits for the body: one 400 with the envelope, then the connection closed', async (_name, framing) => {
    const { port, reached } = await gatewayServer();
    const answer = await rawRequest(port, post('/reads-body', framing), 4_000);
    expect(answer.closedByServer, 'the server closed the connection').toBe(true);
    expect(responsesIn(answer.raw)).toHaveLength(1);
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ success: false, errors: [{ code: 400, message: 'malformed request' }] });
    expect(reached).toEqual([]);
  });

  it.each(BAD_BODIES)('%s, after the app answered from the head: that answer alone, then the connection closed', async (_name, framing) => {
    const { port } = await gatewayServer();
    const answer = await rawRequest(port, post('/answers-at-once', framing), 4_000);
    expect(answer.closedByServer, 'the server closed the connection').toBe(true);
    const responses = responsesIn(answer.raw);
    expect(responses.map((r) => parseRawResponse(r).status)).toEqual([405]);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, errors: [{ code: 405 }] });
  });

  it('after a pipelined request answered keep-alive, the malformed body still gets its own 400, in order', async () => {
    const { port } = await gatewayServer();
    // A complete pipelined request first, then one whose body is malformed: one answer each, in order.
    const first = `POST /reads-body HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    const answer = await rawRequest(port, first + post('/reads-body', BAD_BODIES[0][1]), 4_000);
    expect(answer.closedByServer).toBe(true);
    expect(responsesIn(answer.raw).map((r) => parseRawResponse(r).status)).toEqual([200, 400]);
  });

  it('after a pipelined answer that closes the connection, nothing follows it, not even a refusal', async () => {
    const { port } = await gatewayServer();
    const answer = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n\u0001GARBAGE\r\n\r\n', 4_000);
    expect(answer.closedByServer).toBe(true);
    expect(responsesIn(answer.raw).map((r) => parseRawResponse(r).status)).toEqual([200]);
  });
});
