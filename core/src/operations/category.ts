import type { MessageInitShape } from '@bufbuild/protobuf';
import { SearchSort, type GetCategoryRequest, type GetCategoryResponseSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/index.js';
import type { CategoryInit } from '../parsers/category.js';
import { domainMarketplace, type MarketplaceRequest, pageOrFirst, sortOrDefault } from '../validation/request-fields.js';
import { unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import { searchQuery } from './search.js';
import type { OperationHandler } from './types.js';

type CategoryResponseInit = MessageInitShape<typeof GetCategoryResponseSchema>;

export interface CategoryRequest extends MarketplaceRequest {
  readonly categoryId: string;
  readonly page: number;
  readonly sort: SearchSort;
}

const normalizeCategoryRequest = (m: GetCategoryRequest): CategoryRequest => ({
  marketplace: domainMarketplace(m.domain),
  categoryId: m.categoryId,
  page: pageOrFirst(m.page),
  sort: sortOrDefault(m.sort),
});

/** The marketplace's sort key (`s=`) for a sort, taken from the search operation's one table. */
function sortKey(sort: SearchSort, marketplace: Marketplace): string | undefined {
  return searchQuery({
    marketplace,
    searchTerm: '-',
    categoryId: undefined,
    page: 1,
    limit: undefined,
    minPrice: undefined,
    maxPrice: undefined,
    conditions: [],
    sort,
  }).s;
}

/** `/b?node=ID` with `page` and `s` as the page's own pagination and sort links add them. */
export function categoryQuery(request: Pick<CategoryRequest, 'categoryId' | 'page' | 'sort' | 'marketplace'>): Record<string, string> {
  const query: Record<string, string> = { node: request.categoryId };
  const s = request.sort === SearchSort.FEATURED ? undefined : sortKey(request.sort, request.marketplace);
  if (s) query.s = s;
  if (request.page > 1) query.page = String(request.page);
  return query;
}

export const getCategory: OperationHandler<CategoryRequest, CategoryResponseInit> = async (request, ctx) => {
  const page = await readPage<CategoryInit>(ctx, { path: '/b', query: categoryQuery(request), kind: 'category', what: 'category' }, 'category', {
    args: { categoryId: request.categoryId, page: request.page },
    // A category page names its node or lists its products; a page doing neither is not one.
    usable: (category) => {
      if (!category.name && (category.productResults?.results ?? []).length === 0) {
        throw unparseable('category', 'no department tree, breadcrumb, heading or result list');
      }
    },
  });
  const category = page.value;
  return { retailProductCategory: category, meta: metaOfParsed(page) };
};

export const getCategoryOperation = defineOperation('GetCategory', { normalize: normalizeCategoryRequest, handle: getCategory });
