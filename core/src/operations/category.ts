import type { MessageInitShape } from '@bufbuild/protobuf';
import { SearchSort, type GetCategoryResponseSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/index.js';
import { parseCategoryPage } from '../parsers/category.js';
import type { CategoryRequest } from '../validation/types.js';
import { fetchPage, metaOf, unparseable } from './fetch-parse.js';
import { searchQuery } from './search.js';
import type { OperationHandler } from './types.js';

type CategoryResponseInit = MessageInitShape<typeof GetCategoryResponseSchema>;

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
  const page = await fetchPage(ctx, { path: '/b', query: categoryQuery(request), kind: 'category', what: 'category' });
  const category = parseCategoryPage(page.html, { marketplace: request.marketplace, categoryId: request.categoryId, page: request.page });
  const results = category.productResults?.results ?? [];
  // A category page names its node or lists its products; a page doing neither is not one.
  if (!category.name && results.length === 0) throw unparseable('category', 'no department tree, breadcrumb, heading or result list');
  return { retailProductCategory: category, meta: metaOf(page) };
};
