/**
 * CreateWatch with a url or gtin key: resolved by the core over gRPC (a stand-in core serving
 * RetailService, reached through the gateways' core client), the core's refusals passed through with
 * their reason and field, and the domain a URL's host names when the body gives none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@connectrpc/connect';
import { Domain, ErrorReason, type GetAsinFromGtinRequest, type GetProductRequest } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { coreError, startStubCore, type StubCore } from '../../harness/stub-core.js';
import { as, eventually, failureOf, newAccount, SERVICE_TOKEN, startTestService, type TestService } from './fixtures.js';

let core: StubCore;
let t: TestService;

beforeAll(async () => {
  core = await startStubCore({
    serviceToken: SERVICE_TOKEN,
    handlers: {
      GetProduct: (request) => {
        const asin = /\/dp\/([A-Za-z0-9]{10})/.exec((request as GetProductRequest).url ?? '')?.[1];
        if (!asin) throw coreError(ErrorReason.INVALID_ARGUMENT, 'url must be a product URL with the ASIN in its path, like /dp/B000000000', ['url']);
        return { retailProduct: { asin: asin.toUpperCase(), title: 'A product' } };
      },
      GetAsinFromGtin: (request) => {
        if ((request as GetAsinFromGtinRequest).gtin === '4006381333931') return { retailProduct: { asin: 'B00GTIN001', gtin: '4006381333931' } };
        throw coreError(ErrorReason.NOT_FOUND);
      },
    },
  });
  t = await startTestService({ core: createCoreClient({ address: core.address, serviceToken: SERVICE_TOKEN }) });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await core?.close();
});

describe('lookup keys', () => {
  it('resolves a product URL through the core; its host sets the domain when none is given', async () => {
    const account = newAccount();
    const { retailWatch } = await t.client.createWatch({ url: 'https://www.amazon.de/Some-Lamp/dp/b0url00001/ref=sr_1_1' }, as(account));
    expect(retailWatch).toMatchObject({ asin: 'B0URL00001', domain: Domain.DE });
    await eventually(() => t.refreshRuns.includes('DE:B0URL00001:now'));
    const named = await t.client.createWatch({ url: 'https://www.amazon.co.uk/dp/B0URL00002', domain: Domain.UK }, as(account));
    expect(named.retailWatch).toMatchObject({ asin: 'B0URL00002', domain: Domain.UK });
    expect(core.calls.filter((c) => c.method === 'GetProduct')).toHaveLength(2);
  });

  it('resolves a GTIN through GetAsinFromGtin in the given marketplace', async () => {
    const { retailWatch } = await t.client.createWatch({ gtin: '4006381333931', domain: Domain.FR }, as(newAccount()));
    expect(retailWatch).toMatchObject({ asin: 'B00GTIN001', domain: Domain.FR });
  });

  it('passes the core\'s refusals on with their reason and field, and stores nothing', async () => {
    const account = newAccount();
    const badUrl = await failureOf(t.client.createWatch({ url: 'https://www.amazon.com/gp/bestsellers' }, as(account)));
    expect(badUrl).toMatchObject({ code: Code.InvalidArgument, detail: { reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['url'] } });
    const unknownGtin = await failureOf(t.client.createWatch({ gtin: '036000291452' }, as(account)));
    expect(unknownGtin).toMatchObject({ code: Code.NotFound, detail: { reason: ErrorReason.NOT_FOUND } });
    const badCheckDigit = await failureOf(t.client.createWatch({ gtin: '4006381333932' }, as(account)));
    expect(badCheckDigit).toMatchObject({ code: Code.InvalidArgument, detail: { fieldPath: ['gtin'] } });
    expect((await t.client.listWatches({}, as(account))).retailWatches!.watches).toEqual([]);
  });
});
