import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetBestSellerCategoriesResponseSchema } from '@retail/contract';
import type { BestSellerCategoryInit } from '../parsers/bestseller-categories.js';
import { marketplaceOnly, type MarketplaceRequest } from '../validation/request-fields.js';
import { unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type BestSellerCategoriesResponseInit = MessageInitShape<typeof GetBestSellerCategoriesResponseSchema>;

/** The best-sellers root page's department list; a root page without one is unreadable. */
export const getBestSellerCategories: OperationHandler<MarketplaceRequest, BestSellerCategoriesResponseInit> = async (request, ctx) => {
  const page = await readPage<BestSellerCategoryInit[]>(ctx, { path: '/gp/bestsellers', kind: 'bestseller-categories', what: 'best-sellers' }, 'bestseller-categories', {
    usable: (categories) => {
      if (categories.length === 0) throw unparseable('best-sellers', 'no department tree on the best-sellers root page');
    },
  });
  const categories = page.value;
  return { retailBestSellerCategories: { categories }, meta: metaOfParsed(page) };
};

export const getBestSellerCategoriesOperation = defineOperation('GetBestSellerCategories', { normalize: marketplaceOnly, handle: getBestSellerCategories });
