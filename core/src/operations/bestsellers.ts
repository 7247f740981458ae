import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetBestSellersResponseSchema } from '@retail/contract';
import type { BestSellersInit } from '../parsers/bestsellers.js';
import type { BestSellersRequest } from '../validation/types.js';
import { applyLimit, unparseable } from './fetch-parse.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type BestSellersResponseInit = MessageInitShape<typeof GetBestSellersResponseSchema>;

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
