/**
 * The replay server and a real core on free ports, called with a real gRPC client: the three
 * product operations end to end on the project's fixtures, blocks, not-found and the service token.
 */
import { fileURLToPath } from 'node:url';
import { type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  Domain,
  ErrorDetailSchema,
  ErrorReason,
  GetAsinFromGtinResponseSchema,
  GetGtinFromAsinResponseSchema,
  GetProductResponseSchema,
  RetailService,
  renderData,
} from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedCore, startCore } from '../harness/core.js';
import { createReplayServer, type ReplayServer } from './server.js';

const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));

let replay: ReplayServer;
let core: StartedCore;
let client: Client<typeof RetailService>;
let auth: { headers: { authorization: string } };

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [fixtures] });
  core = await startCore({ marketplaceOrigin: replay.origin });
  client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
  auth = { headers: { authorization: `Bearer ${core.token}` } };
});
afterAll(async () => {
  await core?.stop();
  await replay?.close();
});

async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectError);
    const err = error as ConnectError;
    return { code: err.code, detail: err.findDetails(ErrorDetailSchema)[0] };
  }
  throw new Error('the call succeeded');
}

describe('product operations through the core and the replay server', () => {
  it('GetProduct answers the wire record of docs/contract.md', async () => {
    const response = await client.getProduct({ asin: 'b0fxtus001' }, auth);
    const data = renderData(GetProductResponseSchema, response) as { retailProduct: Record<string, unknown> };
    expect(data.retailProduct).toMatchObject({
      title: 'Acme Barista Pro Espresso Machine, 15 Bar, Stainless Steel',
      asin: 'B0FXTUS001',
      brand: 'Acme',
      price: { symbol: '$', value: 1249.99, currency: 'USD', display: '$1,249.99' },
      rating: 4.6,
      ratingsTotal: 12345,
      isInStock: true,
      coupon: { label: 'Save $50.00 with coupon' },
      seller: { sellerId: 'A1FIXTURESELLR', name: 'Acme Direct' },
    });
    expect(replay.requests.at(-1)?.headers['x-forwarded-host']).toBe('www.amazon.com');
  });

  it('GetProduct by URL takes the marketplace from the host and reads German numbers', async () => {
    const response = await client.getProduct({ url: 'https://www.amazon.de/dp/B0FXTDE001' }, auth);
    expect(response.retailProduct?.price).toMatchObject({ value: 1226, currency: 'EUR', display: '1.226,00\u00a0€' });
    expect(replay.requests.at(-1)?.headers['x-forwarded-host']).toBe('www.amazon.de');
  });

  it('GetAsinFromGtin verifies an ISBN, finds a UPC through search and answers null for an unknown one', async () => {
    const found = await client.getAsinFromGtin({ gtin: '978-0-316-76948-8' }, auth);
    expect(renderData(GetAsinFromGtinResponseSchema, found)).toEqual({ retailProduct: { asin: '0316769487', gtin: '9780316769488' } });
    const none = await client.getAsinFromGtin({ gtin: '9781234567897', domain: Domain.US }, auth);
    expect(renderData(GetAsinFromGtinResponseSchema, none)).toEqual({ retailProduct: { asin: null, gtin: '9781234567897' } });
    const upc = await client.getAsinFromGtin({ gtin: '0-12345-67890-5' }, auth);
    expect(renderData(GetAsinFromGtinResponseSchema, upc)).toEqual({ retailProduct: { asin: 'B0FXGTIN02', gtin: '012345678905' } });
  });

  it('GetGtinFromAsin reads the identifier rows', async () => {
    const response = await client.getGtinFromAsin({ asin: 'B0FXTUS001' }, auth);
    expect(renderData(GetGtinFromAsinResponseSchema, response)).toEqual({ retailProduct: { asin: 'B0FXTUS001', gtin: '885734123450' } });
  });

  it('a captcha page is UNAVAILABLE with an UPSTREAM_BLOCKED detail, a sign-in wall too', async () => {
    for (const asin of ['B0CAPTCHA1', 'B0SIGNIN01']) {
      const { code, detail } = await failure(client.getProduct({ asin }, auth));
      expect(code).toBe(Code.Unavailable);
      expect(detail?.reason).toBe(ErrorReason.UPSTREAM_BLOCKED);
    }
  });

  it('a 404 page is NOT_FOUND', async () => {
    for (const asin of ['B0NOTFOUND', 'B0NOSUCH01']) {
      const { code, detail } = await failure(client.getProduct({ asin }, auth));
      expect(code).toBe(Code.NotFound);
      expect(detail?.reason).toBe(ErrorReason.NOT_FOUND);
    }
  });

  it('a call without the service token is refused and fetches nothing', async () => {
    const before = replay.requests.length;
    const { code } = await failure(client.getProduct({ asin: 'B0FXTUS001' }));
    expect(code).toBe(Code.Unauthenticated);
    expect(replay.requests.length).toBe(before);
  });
});
