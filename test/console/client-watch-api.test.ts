/**
 * The console's WatchApi over the gateways' real backend client: the console's watch routes →
 * createClientWatchApi → createCoreClient (gRPC, service token, `x-retail-account`) → a STAND-IN
 * WatchService gRPC server (the watcher's RPCs are being built; this one answers from handlers
 * below, with the real ErrorDetail trailers). Shows the account travels with every call, bodies
 * become request messages as REST's do, answers are rendered as the REST wire, refusals keep their
 * status, message and path, and a history read charges the account one unit only when it succeeds.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, type Message } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { Domain, ErrorReason, HistoryPointQuality, WatchConditionType, WatchService, WatchStatus } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import type { Metering } from '@retail/metering/api';
import { createClientWatchApi, type WatchApi } from '@retail/console';
import { coreError } from '../harness/stub-core.js';
import { createTestMetering } from './metering.js';
import { ConsoleClient, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

const TOKEN = 'watch-service-token';
const WATCH_ID = '0b5e6a4e-8a39-4c1e-9d2b-6f1f1f0c2a11';
const seen: Array<{ method: string; request: any; account: string | null }> = [];

const watchMessage = (request: any) => ({
  id: WATCH_ID,
  asin: request.asin ?? 'B000TEST01',
  domain: Domain.US,
  label: request.label,
  intervalSeconds: request.intervalSeconds ?? 3600,
  conditions: request.conditions ?? [],
  ...(request.webhook ? { webhook: { url: request.webhook.url, secret: 'whsec_c2VjcmV0' } } : {}),
  status: WatchStatus.ACTIVE,
  createdAt: timestampFromMs(Date.UTC(2026, 10, 25, 12)),
});

const HANDLERS: Record<string, (request: any) => Record<string, unknown>> = {
  CreateWatch: (request) => ({ retailWatch: watchMessage(request) }),
  GetWatch: (request) => {
    if (request.id !== WATCH_ID) throw coreError(ErrorReason.NOT_FOUND, 'No watch with this id', ['id']);
    return { retailWatch: watchMessage({}) };
  },
  UpdateWatch: (request) => ({ retailWatch: watchMessage(request) }),
  GetProductHistory: (request) => {
    if (request.asin === 'B00MISSING') throw coreError(ErrorReason.NOT_FOUND, 'No history for this product');
    return {
      retailProductHistory: {
        asin: request.asin,
        domain: request.domain,
        points: [{ at: timestampFromMs(Date.UTC(2026, 10, 25, 12)), price: { value: 8, currency: 'USD' }, isInStock: true, quality: HistoryPointQuality.OK }],
      },
    };
  },
};

async function startStubWatcher() {
  const impl: Record<string, (request: Message, context: HandlerContext) => Promise<Message>> = {};
  for (const method of WatchService.methods) {
    if (method.methodKind !== 'unary') continue;
    impl[method.localName] = async (request, context) => {
      if (context.requestHeader.get('authorization') !== `Bearer ${TOKEN}`) throw coreError(ErrorReason.UNAUTHENTICATED_SERVICE);
      seen.push({ method: method.name, request, account: context.requestHeader.get('x-retail-account') });
      const handler = HANDLERS[method.name];
      if (!handler) throw coreError(ErrorReason.UNIMPLEMENTED);
      return create(method.output, handler(request) as never);
    };
  }
  const server = http2.createServer(connectNodeAdapter({ routes: (router) => router.service(WatchService, impl as never) }));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => sessions.add(session));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The client keeps its HTTP/2 session open (with pings): end it so close() returns.
        for (const session of sessions) session.destroy();
      }),
  };
}

let metering: Metering;
let watcher: Awaited<ReturnType<typeof startStubWatcher>>;
let server: RunningConsole;
let watchApi: WatchApi;

beforeAll(async () => {
  metering = await createTestMetering();
  watcher = await startStubWatcher();
  // The core's address is never dialled here: only WatchService is called.
  const client = createCoreClient({ address: '127.0.0.1:9', watcherAddress: watcher.address, serviceToken: TOKEN, deadlineMs: 5_000 });
  watchApi = createClientWatchApi({ client, meter: metering.meter });
  server = await startConsole({ metering, watches: watchApi });
});
afterAll(async () => {
  await server?.close();
  await watcher?.close();
  await metering?.close();
});

async function signedIn() {
  const client = new ConsoleClient(server.base);
  const response = await client.signUp(uniqueEmail('client-watch'));
  return { client, accountId: response.body.data.user.accountId as string };
}

const balanceOf = async (client: ConsoleClient) => (await client.get('account')).body.data.balance as number;

describe('the WatchApi over the gateways’ backend client', () => {
  it('creates a watch for the session account and answers the REST wire, the secret included once', async () => {
    const { client, accountId } = await signedIn();
    const created = await client.post('watches', { asin: 'B000TEST01', intervalSeconds: 900, conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9 }], webhook: { url: 'https://hooks.example.com/r' }, label: 'kettle' });
    expect(created.status).toBe(200);
    expect(created.body.data.retailWatch).toMatchObject({
      id: WATCH_ID,
      domain: 'US',
      label: 'kettle',
      status: 'ACTIVE',
      conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9 }],
      webhook: { url: 'https://hooks.example.com/r', secret: 'whsec_c2VjcmV0' },
      createdAt: '2026-11-25T12:00:00.000Z',
      lastRefreshAt: null,
    });
    const call = seen.at(-1)!;
    expect(call).toMatchObject({ method: 'CreateWatch', account: accountId });
    expect(call.request.conditions[0].type).toBe(WatchConditionType.PRICE_AT_OR_BELOW);
    expect(call.request.intervalSeconds).toBe(900);
  });

  it('replaces conditions on update as REST does, and passes a refusal on with its status, message and path', async () => {
    const { client } = await signedIn();
    await client.request('PATCH', `watches/${WATCH_ID}`, { conditions: [] });
    expect(seen.at(-1)!.request).toMatchObject({ id: WATCH_ID, replaceConditions: true, conditions: [] });
    await client.request('PATCH', `watches/${WATCH_ID}`, { status: 'PAUSED' });
    expect(seen.at(-1)!.request).toMatchObject({ replaceConditions: false, status: WatchStatus.PAUSED });

    const missing = await client.get('watches/11111111-2222-3333-4444-555555555555');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0]).toEqual({ code: 404, message: 'No watch with this id', path: ['id'] });
    const unserved = await client.get('watches');
    expect(unserved.status).toBe(501);
  });

  it('charges one unit for a history read, and none when it fails', async () => {
    const { client, accountId } = await signedIn();
    expect(await balanceOf(client)).toBe(100);
    const history = await client.get('product/history?asin=B000TEST01&domain=US');
    expect(history.body.data.retailProductHistory).toEqual({
      asin: 'B000TEST01',
      domain: 'US',
      points: [{ at: '2026-11-25T12:00:00.000Z', price: { value: 8, currency: 'USD' }, listPrice: null, isInStock: true, buyboxSellerId: null, rating: null, ratingsTotal: null, bestSellersRank: null, offerCount: null, quality: 'OK', unknownFields: [], suspectFields: [] }],
    });
    expect(seen.at(-1)!.account).toBe(accountId);
    expect(await balanceOf(client)).toBe(99);
    expect((await client.get('product/history?asin=B00MISSING&domain=US')).status).toBe(404);
    expect(await balanceOf(client)).toBe(99);

    const broke = await metering.admin.createAccount({ units: 0 });
    const calls = seen.length;
    await expect(watchApi.getProductHistory(broke.accountId, { asin: 'B000TEST01', domain: 'US' })).rejects.toMatchObject({ status: 402 });
    expect(seen.length).toBe(calls);
  });
});
