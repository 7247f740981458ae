import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetBestSellerCategoriesResponseSchema } from '@retail/contract';
import type { BestSellerCategoryInit } from '../parsers/bestseller-categories.js';
import { marketplaceOnly, type MarketplaceRequest } from '../validation/request-fields.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readListPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type BestSellerCategoriesResponseInit = MessageInitShape<typeof GetBestSellerCategoriesResponseSchema>;

/** The best-sellers root page's department list; a root page without one is unreadable. */
export const getBestSellerCategories: OperationHandler<MarketplaceRequest, BestSellerCategoriesResponseInit> = async (request, ctx) => {
  const source = { path: '/gp/bestsellers', kind: 'bestseller-categories', what: 'best-sellers' } as const;
  const page = await readListPage<BestSellerCategoryInit>(ctx, source, 'bestseller-categories', 'no department tree on the best-sellers root page');
  return { retailBestSellerCategories: { categories: page.value }, meta: metaOfParsed(page) };
};

export const getBestSellerCategoriesOperation = defineOperation('GetBestSellerCategories', { normalize: marketplaceOnly, handle: getBestSellerCategories });
