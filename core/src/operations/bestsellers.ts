import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetBestSellersRequest, GetBestSellersResponseSchema } from '@retail/contract';
import type { BestSellersInit } from '../parsers/bestsellers.js';
import { agreeingMarketplace, domainMarketplace, type MarketplaceRequest, optionalNumber, pageOrFirst } from '../validation/request-fields.js';
import { parseBestSellersUrl } from '../validation/url.js';
import { applyLimit, unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type BestSellersResponseInit = MessageInitShape<typeof GetBestSellersResponseSchema>;

export interface BestSellersRequest extends MarketplaceRequest {
  /** 'electronics' or 'electronics/541966'; undefined = all departments (a URL of the root page). */
  readonly categoryId: string | undefined;
  readonly source: 'categoryId' | 'url';
  readonly page: number;
  readonly limit: number | undefined;
}

/** A best-sellers URL is reduced to its category here; its host names the marketplace. */
function normalizeBestSellersRequest(m: GetBestSellersRequest): BestSellersRequest {
  const common = { page: pageOrFirst(m.page), limit: optionalNumber(m.limit) };
  if (m.url !== undefined) {
    const parsed = parseBestSellersUrl(m.url, 'url');
    return { ...common, marketplace: agreeingMarketplace(m.domain, parsed.marketplace), categoryId: parsed.categoryId, source: 'url' };
  }
  return { ...common, marketplace: domainMarketplace(m.domain), categoryId: m.categoryId, source: 'categoryId' };
}

/** `/gp/bestsellers/CATEGORY` (`?pg=N` after page 1); a best-sellers URL was reduced to its category by validation. */
export function bestSellersPath(categoryId: string | undefined): string {
  return categoryId ? `/gp/bestsellers/${categoryId}` : '/gp/bestsellers';
}

export const getBestSellers: OperationHandler<BestSellersRequest, BestSellersResponseInit> = async (request, ctx) => {
  const page = await readPage<BestSellersInit>(
    ctx,
    {
      path: bestSellersPath(request.categoryId),
      ...(request.page > 1 ? { query: { pg: String(request.page) } } : {}),
      kind: 'bestsellers',
      what: 'best-sellers category',
    },
    'bestsellers',
    {
      args: { page: request.page, ...(request.categoryId ? { categoryId: request.categoryId } : {}) },
      usable: (data) => {
        if ((data.productResults?.results ?? []).length === 0) throw unparseable('best-sellers', 'no ranked items and no recommendations data');
      },
    },
  );
  const data = page.value;
  const results = data.productResults?.results ?? [];
  return {
    retailBestSellers: {
      productResults: { results: applyLimit(results, request.limit), pageInfo: data.productResults?.pageInfo ?? {} },
      categoryInfo: data.categoryInfo ?? {},
    },
    meta: metaOfParsed(page),
  };
};

export const getBestSellersOperation = defineOperation('GetBestSellers', { normalize: normalizeBestSellersRequest, handle: getBestSellers });
