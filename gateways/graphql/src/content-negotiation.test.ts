import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, HeaderMap } from '@apollo/server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_ACCEPTABLE_MESSAGE, requireAcceptableResponseType } from './content-negotiation.js';

/*
 * The gateway refuses an unacceptable Accept before Apollo runs. The refusal must agree with Apollo's
 * own negotiation on every Accept: refusing more would turn away clients Apollo serves; refusing less
 * lets a request through to be held, executed and only then refused by Apollo, in Apollo's shape.
 */
const ACCEPT_HEADERS: readonly (string | undefined)[] = [
  undefined,
  '',
  '*/*',
  'application/*',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/graphql-response+json',
  'application/graphql-response+json;q=0.9, image/png',
  'application/json;q=0',
  'application/json; callbackSpec=1.0',
  'text/html, application/json;q=0.1',
  'text/html',
  'image/png',
  'text/event-stream',
  'application/xml',
  'multipart/mixed',
  'toH',
  '*/*;q=0',
];

let server: Server;
let port: number;
let apollo: ApolloServer;
const passed: string[] = [];

beforeAll(async () => {
  const app = express();
  app.post('/', requireAcceptableResponseType, (req, res) => {
    passed.push(String(req.headers.accept));
    res.json({ passed: true });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
  apollo = new ApolloServer({ typeDefs: 'type Query { ok: Boolean }', resolvers: { Query: { ok: () => true } } });
  await apollo.start();
});
afterAll(async () => {
  server?.close();
  await apollo?.stop();
});

/** A POST through the check over real HTTP; node:http sends no Accept unless told (fetch would add one). */
function throughCheck(accept: string | undefined): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) };
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

/** Apollo's own answer to the same Accept on a trivial schema: 406 when it finds no type to answer with. */
async function apolloStatus(accept: string | undefined): Promise<number> {
  const headers = new HeaderMap([['content-type', 'application/json'], ...(accept === undefined ? [] : [['accept', accept] as [string, string]])]);
  const response = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: 'POST', headers, search: '', body: { query: '{ ok }' } },
    context: async () => ({}),
  });
  return response.status ?? 200;
}

describe('content negotiation before Apollo', () => {
  it.each(ACCEPT_HEADERS.map((accept) => [accept === undefined ? '(no Accept)' : JSON.stringify(accept), accept]))(
    'Accept %s: refused by the check exactly when Apollo would answer 406',
    async (_label, accept) => {
      const [ours, apollos] = await Promise.all([throughCheck(accept), apolloStatus(accept)]);
      expect(apollos === 406 ? 406 : 200).toBe(ours.status);
      if (ours.status === 406) expect(ours.body).toEqual({ success: false, errors: [{ code: 406, message: NOT_ACCEPTABLE_MESSAGE }] });
      else expect(ours.body).toEqual({ passed: true });
    },
  );

  it('the table holds both outcomes (an agreement on one side only would prove nothing)', async () => {
    const statuses = await Promise.all(ACCEPT_HEADERS.map(apolloStatus));
    expect(new Set(statuses)).toEqual(new Set([200, 406]));
  });
});
