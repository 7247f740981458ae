/**
 * The gateway's work runs as Apollo plugins, so Apollo's own features work through Apollo: other
 * plugins (usage reporting, tracing) see every request, refused ones included; a document is
 * parsed and validated once (Apollo's document store); the landing page (GraphiQL) goes through Apollo's landing-page plugin, behind a switch.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { createCoreClient } from '@retail/gateway-shared';
import { type StubCore, startStubCore } from '../../../test/harness/stub-core.js';
import { type MeteringInstance, createMetering } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphqlApp } from './app.js';
import type { GraphqlContext } from './context.js';

const TOKEN = 'test-service-token';
let core: StubCore;
let metering: MeteringInstance;
const servers: Server[] = [];
const events: string[] = [];

/** Records the request lifecycle as a usage reporting plugin would see it. */
const recorder: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async parsingDidStart() {
        events.push('parse');
      },
      async validationDidStart() {
        events.push('validate');
      },
      async didEncounterErrors({ errors }) {
        events.push(`errors:${errors.length}`);
      },
      async willSendResponse() {
        events.push('send');
      },
    };
  },
};

async function start(options: { landingPage?: boolean }): Promise<string> {
  const app = await createGraphqlApp({
    core: createCoreClient({ address: core.address, serviceToken: TOKEN, deadlineMs: 5000 }),
    metering,
    plugins: [recorder],
    ...options,
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/graphql`;
}

async function post(url: string, query: string, key: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'api-key': key }, body: JSON.stringify({ query }) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

beforeAll(async () => {
  core = await startStubCore({ serviceToken: TOKEN, handlers: { GetProduct: () => ({ retailProduct: { title: 'Kindle', asin: 'B08KTZ8249' } }) } });
  metering = await createMetering({ plans: { unlimited: { ratePerSecond: Infinity, burst: Infinity } } });
});

afterAll(async () => {
  for (const server of servers) server.close();
  await metering?.close();
  await core?.close();
});

describe('Apollo features through the plugins', () => {
  it('lets other plugins see every request, and parses and validates a document once', async () => {
    const url = await start({});
    const { accountId } = await metering.admin.createAccount({ units: 1, plan: 'unlimited' });
    const { key } = await metering.admin.createKey(accountId);
    const query = '{ retailProduct(asin: "B08KTZ8249") { title } }';
    events.length = 0;
    expect((await post(url, query, key)).status).toBe(200);
    expect(events).toEqual(['parse', 'validate', 'send']);
    events.length = 0;
    const poor = await post(url, query, key); // the one unit is spent: 402 for the whole request
    expect(poor).toEqual({ status: 402, json: { success: false, errors: [{ code: 402, message: expect.any(String) }] } });
    expect(events).toEqual(['errors:1', 'send']); // parsed and validated before: Apollo's document store
    events.length = 0;
    const syntax = await post(url, '{ retailProduct(', 'not-a-key');
    expect(syntax.status).toBe(401); // a bad key answers 401 before the document's 400
    expect(events).toEqual(['parse', 'errors:1', 'send']);
  });

  it('serves GraphiQL to a browser unless switched off', async () => {
    const on = await start({});
    const off = await start({ landingPage: false });
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await fetch(on, { headers: browser });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect((await fetch(off, { headers: browser })).status).toBe(405);
    expect((await fetch(`${on}?query={__typename}`, { headers: { accept: 'application/json' } })).status).toBe(405);
  });

  it('serves GraphiQL from this origin only: every script and style it loads is here, under a self-only CSP', async () => {
    const on = await start({});
    const off = await start({ landingPage: false });
    const page = await fetch(on, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self';/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => url !== 'data:,');
    expect(assets).toEqual(expect.arrayContaining(['/api/graphql/graphiql/graphiql.js', '/api/graphql/graphiql/react.js', '/api/graphql/graphiql/start.js']));
    for (const asset of assets) {
      expect(asset.startsWith('/api/graphql/graphiql/')).toBe(true);
      const res = await fetch(new URL(asset, on));
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type')).toMatch(asset.endsWith('.css') ? /text\/css/ : /javascript/);
    }
    expect((await fetch(new URL('/api/graphql/graphiql/graphiql.js', off))).status).toBe(404);
    expect((await fetch(new URL('/api/graphql/graphiql/package.json', on))).status).toBe(404);
  });
});
