import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetCategoryTaxonomyResponseSchema } from '@retail/contract';
import type { CategoryNodeInit } from '../parsers/taxonomy.js';
import { marketplaceOnly, type MarketplaceRequest } from '../validation/request-fields.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readListPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type CategoryTaxonomyResponseInit = MessageInitShape<typeof GetCategoryTaxonomyResponseSchema>;

/** The "All departments" directory as a tree; a directory page without departments is unreadable. */
export const getCategoryTaxonomy: OperationHandler<MarketplaceRequest, CategoryTaxonomyResponseInit> = async (request, ctx) => {
  const source = { path: '/gp/site-directory', kind: 'categories', what: 'department directory' } as const;
  const page = await readListPage<CategoryNodeInit>(ctx, source, 'categories', 'no department groups with links');
  return { retailProductCategoryTaxonomy: page.value, meta: metaOfParsed(page) };
};

export const getCategoryTaxonomyOperation = defineOperation('GetCategoryTaxonomy', { normalize: marketplaceOnly, handle: getCategoryTaxonomy });
