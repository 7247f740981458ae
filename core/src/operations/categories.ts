import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetCategoryTaxonomyResponseSchema } from '@retail/contract';
import { parseCategoryTaxonomy } from '../parsers/taxonomy.js';
import type { MarketplaceOnlyRequest } from '../validation/types.js';
import { fetchPage, metaOf, unparseable } from './fetch-parse.js';
import type { OperationHandler } from './types.js';

type CategoryTaxonomyResponseInit = MessageInitShape<typeof GetCategoryTaxonomyResponseSchema>;

/** The "All departments" directory as a tree; a directory page without departments is unreadable. */
export const getCategoryTaxonomy: OperationHandler<MarketplaceOnlyRequest, CategoryTaxonomyResponseInit> = async (request, ctx) => {
  const page = await fetchPage(ctx, { path: '/gp/site-directory', kind: 'categories', what: 'department directory' });
  const tree = parseCategoryTaxonomy(page.html, request.marketplace);
  if (tree.length === 0) throw unparseable('department directory', 'no department groups with links');
  return { retailProductCategoryTaxonomy: tree, meta: metaOf(page) };
};
