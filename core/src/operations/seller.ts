import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type GetSellerRequest, type GetSellerResponseSchema } from '@retail/contract';
import { isCoreError } from '../errors.js';
import type { ParsedPage } from '../cache/parsed-pages.js';
import { mergeSeller, type SellerInit } from '../parsers/seller.js';
import { domainMarketplace, type MarketplaceRequest, pageOrFirst } from '../validation/request-fields.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationContext, OperationHandler } from './types.js';

type SellerResponseInit = MessageInitShape<typeof GetSellerResponseSchema>;

export interface SellerRequest extends MarketplaceRequest {
  readonly sellerId: string;
  readonly page: number;
}

const normalizeSellerRequest = (m: GetSellerRequest): SellerRequest => ({ marketplace: domainMarketplace(m.domain), sellerId: m.sellerId, page: pageOrFirst(m.page) });

/*
 * A seller = its storefront (`/s?me=SELLER`, the products) plus, when the marketplace serves it,
 * its profile page (`/sp?seller=SELLER`: name, logo, rating, about). The storefront is required;
 * a profile page that is missing or fails only leaves the profile fields out.
 */
export const getSeller: OperationHandler<SellerRequest, SellerResponseInit> = async (request, ctx) => {
  const query: Record<string, string> = { me: request.sellerId };
  if (request.page > 1) query.page = String(request.page);
  // Both pages at once; the storefront decides the outcome.
  const [storefrontPage, profilePage] = await Promise.all([
    readPage<SellerInit>(ctx, { path: '/s', query, kind: 'seller', what: 'seller' }, 'seller-storefront', { args: { sellerId: request.sellerId, page: request.page } }),
    readProfile(ctx, request.sellerId),
  ]);
  const seller: SellerInit = mergeSeller(storefrontPage.value, profilePage?.value);
  if (!seller.productResults) seller.productResults = { results: [], pageInfo: {} };
  return { retailSeller: seller, meta: profilePage ? metaOfParsed(storefrontPage, profilePage) : metaOfParsed(storefrontPage) };
};

async function readProfile(ctx: OperationContext, sellerId: string): Promise<ParsedPage<SellerInit> | undefined> {
  try {
    return await readPage<SellerInit>(ctx, { path: '/sp', query: { seller: sellerId }, kind: 'seller', what: 'seller profile' }, 'seller-profile', { args: { sellerId } });
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

export const getSellerOperation = defineOperation('GetSeller', { normalize: normalizeSellerRequest, handle: getSeller });
