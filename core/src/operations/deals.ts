import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetDealsRequest, GetDealsResponseSchema } from '@retail/contract';
import { DEALS_PAGE_SIZE, type ParsedDeals } from '../parsers/deals.js';
import { domainMarketplace, type MarketplaceRequest, optionalNumber, pageOrFirst } from '../validation/request-fields.js';
import type { MarkedPage } from '../workers/parser-registry.js';
import { applyLimit, unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type DealsResponseInit = MessageInitShape<typeof GetDealsResponseSchema>;

export interface DealsRequest extends MarketplaceRequest {
  readonly page: number;
  readonly limit: number | undefined;
  readonly categoryIds: readonly string[];
}

const normalizeDealsRequest = (m: GetDealsRequest): DealsRequest => ({
  marketplace: domainMarketplace(m.domain),
  page: pageOrFirst(m.page),
  limit: optionalNumber(m.limit),
  categoryIds: [...new Set(m.categoryIds)],
});

/**
 * `/deals`; later pages and department filters go in the grid's `deals-widget` parameter (JSON:
 * `viewIndex` = offset of the page's first deal, `departments` = category node ids), as the
 * storefront's own links write it. Built from validated parameters only.
 */
export function dealsQuery(request: Pick<DealsRequest, 'page' | 'categoryIds'>): Record<string, string> | undefined {
  if (request.page === 1 && request.categoryIds.length === 0) return undefined;
  const widget = {
    version: 1,
    viewIndex: (request.page - 1) * DEALS_PAGE_SIZE,
    presetId: 'deals-collection-all-deals',
    ...(request.categoryIds.length > 0 ? { departments: [...request.categoryIds] } : {}),
    sorting: 'FEATURED',
  };
  return { 'deals-widget': JSON.stringify(widget) };
}

export const getDeals: OperationHandler<DealsRequest, DealsResponseInit> = async (request, ctx) => {
  const query = dealsQuery(request);
  const page = await readPage<MarkedPage<ParsedDeals>>(ctx, { path: '/deals', ...(query ? { query } : {}), kind: 'deals', what: 'deals' }, 'deals-page', {
    args: { page: request.page },
    // An empty grid is a real answer only when the page is the deals app at all.
    usable: ({ data, marked }) => {
      if (data.source === 'none' && !marked) throw unparseable('deals', 'neither the embedded deals state nor deal cards');
    },
  });
  const parsed = page.value.data;
  return {
    retailDeals: { productResults: { results: applyLimit(parsed.results, request.limit), pageInfo: parsed.pageInfo } },
    meta: metaOfParsed(page),
  };
};

export const getDealsOperation = defineOperation('GetDeals', { normalize: normalizeDealsRequest, handle: getDeals });
