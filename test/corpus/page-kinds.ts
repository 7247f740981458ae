import {
  GetBestSellersResponseSchema,
  GetProductOffersResponseSchema,
  GetProductReviewsResponseSchema,
  GetProductVariantsResponseSchema,
  GetSellerResponseSchema,
  SearchProductsResponseSchema,
} from '@retail/contract';
import { parseBestSellersPage } from '../../core/src/parsers/bestsellers.js';
import { parseOffersPage } from '../../core/src/parsers/offers.js';
import { parseReviewsPage } from '../../core/src/parsers/reviews.js';
import { parseSearchPage } from '../../core/src/parsers/search.js';
import { parseSellerStorefront } from '../../core/src/parsers/seller.js';
import { parseVariantsPage } from '../../core/src/parsers/variants.js';
import { runKind, type KindRun } from './page-kind-harness.js';

/**
 * The corpus page kinds other than product, each run as the service runs it: the kind's parser,
 * wrapped in the operation's `data` root. One table for the corpus tests and the docs report.
 */
export const PAGE_KINDS: Readonly<Record<string, () => KindRun>> = {
  search: () =>
    runKind('search', SearchProductsResponseSchema, (html, marketplace) => ({ retailProductSearchResults: parseSearchPage(html, { marketplace }) })),
  bestsellers: () =>
    runKind('bestsellers', GetBestSellersResponseSchema, (html, marketplace, request) => ({
      retailBestSellers: parseBestSellersPage(html, { marketplace, categoryId: String(request.categoryId) }),
    })),
  variants: () =>
    runKind('variants', GetProductVariantsResponseSchema, (html, marketplace, request) => ({
      retailProduct: parseVariantsPage(html, { marketplace, asin: String(request.asin) }),
    })),
  offers: () =>
    runKind('offers', GetProductOffersResponseSchema, (html, marketplace, request) => ({
      retailProduct: { offersPaginated: parseOffersPage(html, { marketplace, asin: String(request.asin) }) },
    })),
  reviews: () =>
    runKind('reviews', GetProductReviewsResponseSchema, (html, marketplace, request) => ({
      retailProduct: { reviewsPaginated: parseReviewsPage(html, { marketplace, asin: String(request.asin) }) },
    })),
  seller: () =>
    runKind('seller', GetSellerResponseSchema, (html, marketplace, request) => ({
      retailSeller: parseSellerStorefront(html, { marketplace, sellerId: String(request.sellerId) }),
    })),
};
