import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type GetSellerResponseSchema } from '@retail/contract';
import { isCoreError } from '../errors.js';
import { mergeSeller, parseSellerProfile, parseSellerStorefront, type SellerInit } from '../parsers/seller.js';
import type { SellerRequest } from '../validation/types.js';
import { fetchPage, metaOf } from './fetch-parse.js';
import type { FetchedPage, OperationContext, OperationHandler } from './types.js';

type SellerResponseInit = MessageInitShape<typeof GetSellerResponseSchema>;

/*
 * A seller = its storefront (`/s?me=SELLER`, the products) plus, when the marketplace serves it,
 * its profile page (`/sp?seller=SELLER`: name, logo, rating, about). The storefront is required;
 * a profile page that is missing or fails only leaves the profile fields out.
 */
export const getSeller: OperationHandler<SellerRequest, SellerResponseInit> = async (request, ctx) => {
  const query: Record<string, string> = { me: request.sellerId };
  if (request.page > 1) query.page = String(request.page);
  const storefrontPage = await fetchPage(ctx, { path: '/s', query, kind: 'seller', what: 'seller' });
  const parseCtx = { marketplace: request.marketplace, sellerId: request.sellerId, page: request.page };
  const storefront = parseSellerStorefront(storefrontPage.html, parseCtx);
  const profilePage = await fetchProfile(ctx, request.sellerId);
  const profile = profilePage ? parseSellerProfile(profilePage.html, parseCtx) : undefined;
  const seller: SellerInit = mergeSeller(storefront, profile);
  if (!seller.productResults) seller.productResults = { results: [], pageInfo: {} };
  return { retailSeller: seller, meta: profilePage ? metaOf(storefrontPage, profilePage) : metaOf(storefrontPage) };
};

async function fetchProfile(ctx: OperationContext, sellerId: string): Promise<FetchedPage | undefined> {
  try {
    return await fetchPage(ctx, { path: '/sp', query: { seller: sellerId }, kind: 'seller', what: 'seller profile' });
  } catch (error) {
    // Blocked or cancelled calls fail the whole operation; a missing profile page does not.
    if (ctx.signal.aborted) throw error;
    if (isCoreError(error) && (error.reason === ErrorReason.NOT_FOUND || error.reason === ErrorReason.UPSTREAM_ERROR)) {
      ctx.logger.debug({ sellerId }, 'seller profile page unavailable; answering from the storefront');
      return undefined;
    }
    throw error;
  }
}
