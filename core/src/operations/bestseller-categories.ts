import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetBestSellerCategoriesResponseSchema } from '@retail/contract';
import { parseBestSellerCategories } from '../parsers/bestseller-categories.js';
import type { MarketplaceOnlyRequest } from '../validation/types.js';
import { fetchPage, metaOf, unparseable } from './fetch-parse.js';
import type { OperationHandler } from './types.js';

type BestSellerCategoriesResponseInit = MessageInitShape<typeof GetBestSellerCategoriesResponseSchema>;

/** The best-sellers root page's department list; a root page without one is unreadable. */
export const getBestSellerCategories: OperationHandler<MarketplaceOnlyRequest, BestSellerCategoriesResponseInit> = async (request, ctx) => {
  const page = await fetchPage(ctx, { path: '/gp/bestsellers', kind: 'bestseller-categories', what: 'best-sellers' });
  const categories = parseBestSellerCategories(page.html, request.marketplace);
  if (categories.length === 0) throw unparseable('best-sellers', 'no department tree on the best-sellers root page');
  return { retailBestSellerCategories: { categories }, meta: metaOf(page) };
};
