import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type GetProductOffersResponseSchema } from '@retail/contract';
import { isCoreError } from '../errors.js';
import { parseOffersPage } from '../parsers/offers.js';
import type { ProductOffersRequest } from '../validation/types.js';
import { fetchPage, metaOf, unparseable, type AsinResolver } from './fetch-parse.js';
import { resolveLookupAsin } from './product-lookup.js';
import type { FetchedPage, OperationContext, OperationHandler } from './types.js';

type OffersResponseInit = MessageInitShape<typeof GetProductOffersResponseSchema>;

/*
 * Offers of a product, from the all-offers display. The current display is an ajax fragment
 * (`/gp/product/ajax?asin=…&pc=dp&experienceId=aodAjaxMain`, `pageno` for later pages); when the
 * marketplace does not serve it (404), the offer-listing address `/gp/offer-listing/ASIN` is read
 * instead (legacy `startIndex` paging), which also answers with either generation of the page.
 */
export function aodQuery(asin: string, page: number): Record<string, string> {
  return { asin, pc: 'dp', experienceId: 'aodAjaxMain', ...(page > 1 ? { pageno: String(page) } : {}) };
}

export function offerListingQuery(page: number): Record<string, string> | undefined {
  if (page <= 1) return undefined;
  return { startIndex: String((page - 1) * 10) };
}

async function fetchOffersPage(ctx: OperationContext, asin: string, page: number): Promise<FetchedPage> {
  try {
    return await fetchPage(ctx, { path: '/gp/product/ajax', query: aodQuery(asin, page), kind: 'offers', what: 'product' });
  } catch (error) {
    if (ctx.signal.aborted || !isCoreError(error) || error.reason !== ErrorReason.NOT_FOUND) throw error;
    const query = offerListingQuery(page);
    return fetchPage(ctx, { path: `/gp/offer-listing/${asin}`, ...(query ? { query } : {}), kind: 'offers', what: 'product' });
  }
}

export function createGetProductOffers(resolveAsin: AsinResolver = resolveLookupAsin): OperationHandler<ProductOffersRequest, OffersResponseInit> {
  return async (request, ctx) => {
    const asin = await resolveAsin(request.lookup, ctx);
    const page = await fetchOffersPage(ctx, asin, request.page);
    const data = parseOffersPage(page.html, { marketplace: request.marketplace, asin, page: request.page });
    const offers = data.offers ?? [];
    if (offers.length === 0 && !/aod-container|olpOfferList|aod-no-offer|olpProduct/.test(page.html)) {
      throw unparseable('offers', 'neither the offers display nor the offer listing');
    }
    return { retailProduct: { offersPaginated: { offers, pageInfo: data.pageInfo ?? {} } }, meta: metaOf(page) };
  };
}

export const getProductOffers = createGetProductOffers();
