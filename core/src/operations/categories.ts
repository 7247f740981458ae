import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetCategoryTaxonomyResponseSchema } from '@retail/contract';
import type { CategoryNodeInit } from '../parsers/taxonomy.js';
import { marketplaceOnly, type MarketplaceRequest } from '../validation/request-fields.js';
import { unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type CategoryTaxonomyResponseInit = MessageInitShape<typeof GetCategoryTaxonomyResponseSchema>;

/** The "All departments" directory as a tree; a directory page without departments is unreadable. */
export const getCategoryTaxonomy: OperationHandler<MarketplaceRequest, CategoryTaxonomyResponseInit> = async (request, ctx) => {
  const page = await readPage<CategoryNodeInit[]>(ctx, { path: '/gp/site-directory', kind: 'categories', what: 'department directory' }, 'categories', {
    usable: (tree) => {
      if (tree.length === 0) throw unparseable('department directory', 'no department groups with links');
    },
  });
  const tree = page.value;
  return { retailProductCategoryTaxonomy: tree, meta: metaOfParsed(page) };
};

export const getCategoryTaxonomyOperation = defineOperation('GetCategoryTaxonomy', { normalize: marketplaceOnly, handle: getCategoryTaxonomy });
