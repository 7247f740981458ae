/**
 * The six catalogue operations end to end: the replay server serving the project's fixtures
 * (unverified: written by the project, not saved marketplace pages), a real core over gRPC with its
 * real upstream client, and the contract's wire renderer. Blocks and missing pages included.
 */
import { fileURLToPath } from 'node:url';
import { type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  Domain,
  ErrorDetailSchema,
  ErrorReason,
  GetAuthorResponseSchema,
  GetAutocompleteSuggestionsResponseSchema,
  GetBestSellerCategoriesResponseSchema,
  GetCategoryResponseSchema,
  GetCategoryTaxonomyResponseSchema,
  GetDealsResponseSchema,
  RetailService,
  renderData,
} from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedCore, startCore } from '../harness/core.js';
import { createReplayServer, type ReplayServer } from './server.js';

const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const CAPTCHA = '<html><body><form action="/errors/validateCaptcha"><h4>Enter the characters you see below</h4></form></body></html>';

let replay: ReplayServer;
let core: StartedCore;
let client: Client<typeof RetailService>;
let auth: { headers: { authorization: string } };

beforeAll(async () => {
  replay = await createReplayServer({
    corpusDirs: [fixtures],
    // The UK deals page answers a robot check, as a blocked marketplace does.
    faults: (request) => (request.host === 'www.amazon.co.uk' && request.path === '/deals' ? { status: 503, body: CAPTCHA } : undefined),
  });
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
    return { code: (error as ConnectError).code, reason: (error as ConnectError).findDetails(ErrorDetailSchema)[0]?.reason };
  }
  throw new Error('the call succeeded');
}

describe('catalogue operations through the core and the replay server', () => {
  it('GetAutocompleteSuggestions asks the suggestion host and answers the keyword list', async () => {
    const data = renderData(GetAutocompleteSuggestionsResponseSchema, await client.getAutocompleteSuggestions({ searchTerm: 'kaffee', domain: Domain.DE }, auth));
    expect(data).toEqual({
      retailSearchAutocompleteResults: [
        { suggestion: 'kaffeevollautomat' },
        { suggestion: 'kaffeebohnen 1kg' },
        { suggestion: 'kaffeemühle elektrisch' },
        { suggestion: 'kaffeemaschine mit mahlwerk' },
      ],
    });
    expect(replay.requests.at(-1)).toMatchObject({ host: 'completion.amazon.de', path: '/api/2017/suggestions' });
    const empty = renderData(GetAutocompleteSuggestionsResponseSchema, await client.getAutocompleteSuggestions({ searchTerm: 'qzxqzxqzx' }, auth));
    expect(empty).toEqual({ retailSearchAutocompleteResults: [] });
  });

  it('GetDeals answers deal records; page 2 follows the grid parameter', async () => {
    const data = renderData(GetDealsResponseSchema, await client.getDeals({ limit: 1n }, auth)) as {
      retailDeals: { productResults: { results: Record<string, unknown>[]; pageInfo: Record<string, unknown> } };
    };
    expect(data.retailDeals.productResults.results).toHaveLength(1);
    expect(data.retailDeals.productResults.results[0]).toMatchObject({
      asin: 'B0DLUS0001',
      dealId: '9f1c2e3a',
      dealIsLightningDeal: true,
      dealPrice: { symbol: '$', value: 59.99, currency: 'USD', display: '$59.99' },
      coupon: null,
      authors: [],
    });
    expect(data.retailDeals.productResults.pageInfo).toEqual({ currentPage: 1, totalPages: 3, totalResults: 143, hasNextPage: true, hasPrevPage: false });
    const page2 = renderData(GetDealsResponseSchema, await client.getDeals({ page: 2n }, auth)) as typeof data;
    expect(page2.retailDeals.productResults.results.map((r) => r.asin)).toEqual(['B0DLUS0001', 'B0DLUS0002']);
    expect(page2.retailDeals.productResults.pageInfo).toMatchObject({ currentPage: 2, hasPrevPage: true });
  });

  it('GetBestSellerCategories lists the departments (DE)', async () => {
    const data = renderData(GetBestSellerCategoriesResponseSchema, await client.getBestSellerCategories({ domain: Domain.DE }, auth)) as {
      retailBestSellerCategories: { categories: unknown[] };
    };
    expect(data.retailBestSellerCategories.categories).toContainEqual({ id: 'ce-de', name: 'Elektronik & Foto', url: 'https://www.amazon.de/gp/bestsellers/ce-de' });
  });

  it('GetCategoryTaxonomy answers the department tree', async () => {
    const data = renderData(GetCategoryTaxonomyResponseSchema, await client.getCategoryTaxonomy({}, auth)) as {
      retailProductCategoryTaxonomy: { name: string; subcategories: { id?: string; name: string; subcategories: unknown[] }[] }[];
    };
    expect(data.retailProductCategoryTaxonomy.map((n) => n.name)).toEqual(['Amazon Music', 'Electronics', 'Computers']);
    expect(data.retailProductCategoryTaxonomy[1]!.subcategories[1]).toEqual({
      id: '172541',
      name: 'Headphones',
      url: 'https://www.amazon.com/b?node=172541',
      breadcrumbPath: 'Electronics > Headphones',
      subcategories: [],
    });
  });

  it('GetAuthor answers the profile and the books with their authors (JP)', async () => {
    const data = renderData(GetAuthorResponseSchema, await client.getAuthor({ asin: 'b0fxauthjp', domain: Domain.JP }, auth)) as {
      retailAuthor: { name: string; bookResults: { results: { price?: unknown; authors: unknown[] }[] } };
    };
    expect(data.retailAuthor.name).toBe('山田 太郎');
    expect(data.retailAuthor.bookResults.results[0]).toMatchObject({
      price: { symbol: '￥', value: 1280, currency: 'JPY', display: '￥1,280' },
      authors: [{ name: '山田 太郎', url: 'https://www.amazon.co.jp/stores/author/B0FXAUTHJP' }],
    });
  });

  it('GetCategory answers the node, its children and a page of products (DE page 2)', async () => {
    const data = renderData(GetCategoryResponseSchema, await client.getCategory({ categoryId: '3310781', page: 2n, domain: Domain.DE }, auth)) as {
      retailProductCategory: Record<string, unknown> & { productResults: { results: unknown[]; pageInfo: unknown } };
    };
    expect(data.retailProductCategory).toMatchObject({
      id: '3310781',
      name: 'Kaffee, Tee & Espresso',
      url: 'https://www.amazon.de/b?node=3310781',
      breadcrumbPath: 'Küche, Haushalt & Wohnen > Küchen- & Haushaltsgeräte > Kaffee, Tee & Espresso',
    });
    expect(data.retailProductCategory.productResults.results).toHaveLength(2);
    expect(data.retailProductCategory.productResults.pageInfo).toMatchObject({ currentPage: 2, totalPages: 7 });
  });

  it('a missing author, category or directory is NOT_FOUND; a blocked deals page is UNAVAILABLE', async () => {
    for (const call of [
      client.getAuthor({ asin: 'B0NOAUTHOR' }, auth),
      client.getCategory({ categoryId: '999999999' }, auth),
      client.getCategoryTaxonomy({ domain: Domain.JP }, auth),
    ]) {
      expect(await failure(call)).toEqual({ code: Code.NotFound, reason: ErrorReason.NOT_FOUND });
    }
    expect(await failure(client.getDeals({ domain: Domain.UK }, auth))).toEqual({ code: Code.Unavailable, reason: ErrorReason.UPSTREAM_BLOCKED });
  });
});
