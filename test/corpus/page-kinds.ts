import {
  GetBestSellerCategoriesResponseSchema,
  GetBestSellersResponseSchema,
  GetDealsResponseSchema,
  GetProductOffersResponseSchema,
  GetProductReviewsResponseSchema,
  GetProductVariantsResponseSchema,
  GetSellerResponseSchema,
  SearchProductsResponseSchema,
} from '@retail/contract';
import { parseBestSellerCategories } from '../../core/src/parsers/bestseller-categories.js';
import { parseBestSellersPage } from '../../core/src/parsers/bestsellers.js';
import { parseDealsPage } from '../../core/src/parsers/deals.js';
import { parseOffersPage } from '../../core/src/parsers/offers.js';
import { parseReviewsPage } from '../../core/src/parsers/reviews.js';
import { parseSearchPage } from '../../core/src/parsers/search.js';
import { parseSellerStorefront } from '../../core/src/parsers/seller.js';
import { parseVariantsPage } from '../../core/src/parsers/variants.js';
import { runKind, type KindRun } from './page-kind-harness.js';

export interface PageKind {
  /** Pages of the kind the corpus holds at least (fewer: the corpus or the filter went wrong). */
  readonly minPages: number;
  readonly run: () => KindRun;
}

/**
 * The corpus page kinds other than product (product.test.ts runs those through gRPC), each run as
 * the service runs it: the kind's parser, wrapped in the operation's `data` root. One table for the
 * corpus tests and the docs report; a kind the corpus has and this table lacks fails the tests.
 */
export const PAGE_KINDS: Readonly<Record<string, PageKind>> = {
  search: {
    minPages: 11,
    run: () => runKind('search', SearchProductsResponseSchema, (html, marketplace) => ({ retailProductSearchResults: parseSearchPage(html, { marketplace }) })),
  },
  bestsellers: {
    minPages: 3,
    run: () =>
      runKind('bestsellers', GetBestSellersResponseSchema, (html, marketplace, request) => ({
        retailBestSellers: parseBestSellersPage(html, { marketplace, categoryId: String(request.categoryId) }),
      })),
  },
  'bestseller-categories': {
    minPages: 2,
    run: () =>
      runKind('bestseller-categories', GetBestSellerCategoriesResponseSchema, (html, marketplace) => ({
        retailBestSellerCategories: { categories: parseBestSellerCategories(html, marketplace) },
      })),
  },
  deals: {
    minPages: 1,
    run: () =>
      runKind('deals', GetDealsResponseSchema, (html, marketplace, request) => {
        const { results, pageInfo } = parseDealsPage(html, { marketplace, page: Number(request.page ?? 1) });
        return { retailDeals: { productResults: { results, pageInfo } } };
      }),
  },
  variants: {
    minPages: 1,
    run: () =>
      runKind('variants', GetProductVariantsResponseSchema, (html, marketplace, request) => ({
        retailProduct: parseVariantsPage(html, { marketplace, asin: String(request.asin) }),
      })),
  },
  offers: {
    minPages: 3,
    run: () =>
      runKind('offers', GetProductOffersResponseSchema, (html, marketplace, request) => ({
        retailProduct: { offersPaginated: parseOffersPage(html, { marketplace, asin: String(request.asin) }) },
      })),
  },
  reviews: {
    minPages: 3,
    run: () =>
      runKind('reviews', GetProductReviewsResponseSchema, (html, marketplace, request) => ({
        retailProduct: { reviewsPaginated: parseReviewsPage(html, { marketplace, asin: String(request.asin) }) },
      })),
  },
  seller: {
    minPages: 2,
    run: () =>
      runKind('seller', GetSellerResponseSchema, (html, marketplace, request) => ({
        retailSeller: parseSellerStorefront(html, { marketplace, sellerId: String(request.sellerId) }),
      })),
  },
};
