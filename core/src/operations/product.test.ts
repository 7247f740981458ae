import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheStatus, ErrorReason } from '@retail/contract';
import { createReplayServer, type ReplayServer } from '../../../test/replay/server.js';
import type { CoreError } from '../errors.js';
import { marketplaceByCode, type Marketplace } from '../marketplaces/index.js';
import { createPageFetcher, type ClosablePageFetcher } from '../upstream/index.js';
import { getAsinFromGtin } from './asin-from-gtin.js';
import { getGtinFromAsin } from './gtin-from-asin.js';
import { getProduct } from './product.js';
import { resolveLookupAsin } from './product-lookup.js';
import type { OperationContext } from './types.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/pages/', import.meta.url));
const bookPage = readFileSync(`${fixtures}/pages/com/product/dp-0316769487-book-paperback.html`, 'utf8');
const US = marketplaceByCode('US');
const DE = marketplaceByCode('DE');

let replay: ReplayServer;
let pages: ClosablePageFetcher;
beforeAll(async () => {
  replay = await createReplayServer({
    corpusDirs: [fixtures],
    // Another ISBN's page showing a different book: its ISBN rows disagree with the candidate.
    faults: (req) => (req.path === '/dp/0306406152' ? { status: 200, body: bookPage } : undefined),
  });
  pages = createPageFetcher({ origin: replay.origin, timeoutMs: 5_000 });
});
afterAll(async () => {
  await pages.close();
  await replay.close();
});

const ctx = (marketplace: Marketplace = US): OperationContext => ({
  marketplace,
  signal: new AbortController().signal,
  pages,
  logger: pino({ level: 'silent' }),
  requestId: 'test',
});
const asinLookup = (asin: string) => ({ kind: 'asin' as const, asin, source: 'asin' as const });

async function failure(promise: Promise<unknown>): Promise<CoreError> {
  try {
    await promise;
  } catch (error) {
    return error as CoreError;
  }
  throw new Error('expected a failure');
}

describe('GetProduct', () => {
  it('answers the product record with response metadata', async () => {
    const res = await getProduct({ marketplace: US, lookup: asinLookup('B0FXTUS001') }, ctx());
    expect(res.retailProduct?.title).toBe('Acme Barista Pro Espresso Machine, 15 Bar, Stainless Steel');
    expect(res.retailProduct?.price?.value).toBe(1249.99);
    expect(res.meta?.cache).toBe(CacheStatus.MISS);
    expect(res.meta?.retrievedAt).toBeDefined();
  });
  it('resolves a 978 ISBN-13 to its book and fetches the page once', async () => {
    const before = replay.requests.length;
    const res = await getProduct({ marketplace: US, lookup: { kind: 'gtin', gtin: '9780316769488', gtinKind: 'EAN-13' } }, ctx());
    expect(res.retailProduct?.asin).toBe('0316769487');
    expect(replay.requests.length).toBe(before + 1);
  });
  it('maps blocks and missing products to their reasons', async () => {
    expect((await failure(getProduct({ marketplace: US, lookup: asinLookup('B0CAPTCHA1') }, ctx()))).reason).toBe(ErrorReason.UPSTREAM_BLOCKED);
    expect((await failure(getProduct({ marketplace: US, lookup: asinLookup('B0NOTFOUND') }, ctx()))).reason).toBe(ErrorReason.NOT_FOUND);
    // A GTIN no product verifies (the search finds nothing) is NOT_FOUND for the product operation.
    const upc = await failure(getProduct({ marketplace: US, lookup: { kind: 'gtin', gtin: '885734123450', gtinKind: 'UPC-A' } }, ctx()));
    expect(upc.reason).toBe(ErrorReason.NOT_FOUND);
  });
});

describe('GetAsinFromGtin', () => {
  it('verifies an ISBN-13 and an ISBN-10 on the product page', async () => {
    for (const [gtin, gtinKind] of [['9780316769488', 'EAN-13'], ['0316769487', 'ISBN-10']] as const) {
      const res = await getAsinFromGtin({ marketplace: US, gtin, gtinKind }, ctx());
      expect(res.retailProduct).toEqual({ asin: '0316769487', gtin });
    }
  });
  it('answers asin null when the page is missing or shows another book', async () => {
    const missing = await getAsinFromGtin({ marketplace: US, gtin: '9781234567897', gtinKind: 'EAN-13' }, ctx());
    expect(missing.retailProduct).toEqual({ gtin: '9781234567897' });
    const other = await getAsinFromGtin({ marketplace: US, gtin: '0306406152', gtinKind: 'ISBN-10' }, ctx());
    expect(other.retailProduct).toEqual({ gtin: '0306406152' });
  });
  it('other GTINs go through search: the candidate whose identifier rows carry the GTIN wins', async () => {
    const res = await getAsinFromGtin({ marketplace: US, gtin: '012345678905', gtinKind: 'UPC-A' }, ctx());
    expect(res.retailProduct).toEqual({ asin: 'B0FXGTIN02', gtin: '012345678905' });
    // Only organic candidates count; none of them shows this UPC.
    const none = await getAsinFromGtin({ marketplace: US, gtin: '036000291452', gtinKind: 'UPC-A' }, ctx());
    expect(none.retailProduct).toEqual({ gtin: '036000291452' });
    const product = await getProduct({ marketplace: US, lookup: { kind: 'gtin', gtin: '012345678905', gtinKind: 'UPC-A' } }, ctx());
    expect(product.retailProduct?.asin).toBe('B0FXGTIN02');
  });
});

describe('GetGtinFromAsin', () => {
  it('reads UPC, EAN and ISBN-13 rows', async () => {
    expect((await getGtinFromAsin({ marketplace: US, asin: 'B0FXTUS001' }, ctx())).retailProduct).toEqual({ asin: 'B0FXTUS001', gtin: '885734123450' });
    expect((await getGtinFromAsin({ marketplace: US, asin: '0316769487' }, ctx())).retailProduct).toEqual({ asin: '0316769487', gtin: '9780316769488' });
    expect((await getGtinFromAsin({ marketplace: DE, asin: 'B0FXTDE001' }, ctx(DE))).retailProduct).toEqual({ asin: 'B0FXTDE001', gtin: '4006381333931' });
    const JP = marketplaceByCode('JP');
    expect((await getGtinFromAsin({ marketplace: JP, asin: 'B0FXTJP001' }, ctx(JP))).retailProduct).toEqual({ asin: 'B0FXTJP001', gtin: '4901234567894' });
  });
  it('a missing product is NOT_FOUND', async () => {
    expect((await failure(getGtinFromAsin({ marketplace: US, asin: 'B0NOTFOUND' }, ctx()))).reason).toBe(ErrorReason.NOT_FOUND);
  });
});

describe('resolveLookupAsin (for the other per-product operations)', () => {
  it('passes ASINs through and resolves ISBNs; an unmatched ISBN is NOT_FOUND', async () => {
    expect(await resolveLookupAsin(asinLookup('B0FXTUS001'), ctx())).toBe('B0FXTUS001');
    expect(await resolveLookupAsin({ kind: 'gtin', gtin: '9780316769488', gtinKind: 'EAN-13' }, ctx())).toBe('0316769487');
    expect((await failure(resolveLookupAsin({ kind: 'gtin', gtin: '9781234567897', gtinKind: 'EAN-13' }, ctx()))).reason).toBe(ErrorReason.NOT_FOUND);
  });
});
