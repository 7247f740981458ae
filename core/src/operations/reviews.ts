import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, ReviewRating, type GetProductReviewsRequest, type GetProductReviewsResponseSchema } from '@retail/contract';
import { CoreError, isCoreError } from '../errors.js';
import type { ParsedPage } from '../cache/parsed-pages.js';
import type { ProductPageParts } from '../parsers/product-page.js';
import type { ReviewsPageInit } from '../parsers/reviews.js';
import { pageOrFirst, productLookup, type ProductLookupRequest } from '../validation/request-fields.js';
import type { MarkedPage } from '../workers/parser-registry.js';
import { unparseable, type AsinResolver } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import { resolveLookupAsin } from './product-lookup.js';
import { loadProductPageOnly, loadProductPageParts } from './product-pages.js';
import type { OperationContext, OperationHandler } from './types.js';

type ReviewsResponseInit = MessageInitShape<typeof GetProductReviewsResponseSchema>;

export interface ProductReviewsRequest extends ProductLookupRequest {
  readonly page: number;
  readonly onlyVerifiedReviews: boolean;
  /** Never UNSPECIFIED (defaults to ALL). */
  readonly rating: ReviewRating;
  readonly search: string | undefined;
}

function normalizeReviewsRequest(m: GetProductReviewsRequest): ProductReviewsRequest {
  return {
    ...productLookup(m),
    page: pageOrFirst(m.page),
    onlyVerifiedReviews: m.onlyVerifiedReviews ?? false,
    rating: m.rating === ReviewRating.UNSPECIFIED ? ReviewRating.ALL : m.rating,
    search: m.search?.trim() || undefined,
  };
}

/** The marketplace's `filterByStar` values. */
const STAR_FILTERS: Partial<Record<ReviewRating, string>> = {
  [ReviewRating.FIVE_STAR]: 'five_star',
  [ReviewRating.FOUR_STAR]: 'four_star',
  [ReviewRating.THREE_STAR]: 'three_star',
  [ReviewRating.TWO_STAR]: 'two_star',
  [ReviewRating.ONE_STAR]: 'one_star',
};

/** Says what works without the session (for the client) and what to set (for the operator); docs/parsers.md, Reviews. */
export const SESSION_REQUIRED_MESSAGE =
  'Paginated and filtered reviews need a signed-in marketplace session, which this deployment is not configured with; ' +
  'retrying will not help. Top reviews work without it: page 1 with no rating, verified-only or search filter. ' +
  "The service's operator enables the rest by setting REVIEWS_SESSION_COOKIE on the core.";

/** The `/product-reviews/ASIN` query for the validated filters. */
export function reviewsQuery(request: ProductReviewsRequest): Record<string, string> {
  const query: Record<string, string> = {};
  if (request.page > 1) query.pageNumber = String(request.page);
  const star = STAR_FILTERS[request.rating];
  if (star) query.filterByStar = star;
  if (request.onlyVerifiedReviews) query.reviewerType = 'avp_only_reviews';
  if (request.search) query.filterByKeyword = request.search;
  return query;
}

function wantsOnlyTopReviews(request: ProductReviewsRequest): boolean {
  return request.page === 1 && request.rating === ReviewRating.ALL && !request.onlyVerifiedReviews && !request.search;
}

export interface ReviewsHandlerOptions {
  readonly resolveAsin?: AsinResolver;
  /**
   * Whether a marketplace session is configured (the upstream client sends REVIEWS_SESSION_COOKIE
   * with `reviews` page fetches). Several marketplaces answer /product-reviews only when signed in.
   */
  readonly sessionConfigured?: boolean;
}

/*
 * Reviews = the product page's top reviews, plus the paginated review list when a session is
 * configured. Without one, page 1 with no filters answers with the top reviews alone (the review
 * list then holds those same reviews, marked as one page), and anything else is SESSION_REQUIRED
 * (501: the deployment's configuration, not worth a retry) saying what is missing and what works. With a session both pages are fetched at once; the review list is
 * required, the product page only adds top reviews.
 */
export function createGetProductReviews(options: ReviewsHandlerOptions = {}): OperationHandler<ProductReviewsRequest, ReviewsResponseInit> {
  const resolveAsin = options.resolveAsin ?? resolveLookupAsin;
  return async (request, ctx) => {
    const sessionConfigured = options.sessionConfigured ?? ctx.reviewsSession === true;
    if (!sessionConfigured && !wantsOnlyTopReviews(request)) {
      throw new CoreError(ErrorReason.SESSION_REQUIRED, SESSION_REQUIRED_MESSAGE);
    }
    const asin = await resolveAsin(request.lookup, ctx);
    if (!sessionConfigured) {
      // The product page is the only source here, so it is required.
      const productPage = await loadProductPageOnly(asin, ctx);
      const topReviews = [...productPage.value.topReviews];
      return {
        retailProduct: {
          topReviews,
          reviewsPaginated: {
            reviews: topReviews,
            pageInfo: { currentPage: 1n, totalPages: 1n, totalResults: BigInt(topReviews.length), hasNextPage: false, hasPrevPage: false },
          },
        },
        meta: metaOfParsed(productPage),
      };
    }
    // With a session the review list is required and the product page (top reviews) is read beside
    // it, best effort: a product page that cannot be read leaves topReviews empty.
    const query = reviewsQuery(request);
    const [reviewsPage, productPage] = await Promise.all([
      readPage<MarkedPage<ReviewsPageInit>>(
        ctx,
        { path: `/product-reviews/${asin}`, ...(Object.keys(query).length > 0 ? { query } : {}), kind: 'reviews', what: 'product' },
        'reviews-page',
        {
          args: { asin, page: request.page },
          usable: ({ data, marked }) => {
            if ((data.reviews ?? []).length === 0 && !marked) throw unparseable('reviews', 'no review list on the page');
          },
        },
      ),
      optionalProductPage(ctx, asin),
    ]);
    const paginated = reviewsPage.value.data;
    const topReviews = productPage?.value.isProductPage ? [...productPage.value.topReviews] : [];
    return {
      retailProduct: { topReviews, reviewsPaginated: { reviews: paginated.reviews ?? [], pageInfo: paginated.pageInfo ?? {} } },
      meta: productPage ? metaOfParsed(reviewsPage, productPage) : metaOfParsed(reviewsPage),
    };
  };
}

async function optionalProductPage(ctx: OperationContext, asin: string): Promise<ParsedPage<ProductPageParts> | undefined> {
  try {
    return await loadProductPageParts(asin, ctx);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (isCoreError(error) && (error.reason === ErrorReason.NOT_FOUND || error.reason === ErrorReason.UPSTREAM_ERROR)) return undefined;
    throw error;
  }
}

export const getProductReviews = createGetProductReviews();

/** GetProductReviews: the top reviews and one page of the review list of the product a lookup key names. */
export const getProductReviewsOperation = defineOperation('GetProductReviews', { normalize: normalizeReviewsRequest, handle: getProductReviews });
