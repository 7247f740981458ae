import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetProductOffersResponseSchema } from '@retail/contract';
import { parseOffersPage } from '../parsers/offers.js';
import type { ProductOffersRequest } from '../validation/types.js';
import { fetchPage, metaOf, unparseable, type AsinResolver } from './fetch-parse.js';
import { resolveLookupAsin } from './product-lookup.js';
import type { OperationHandler } from './types.js';

type OffersResponseInit = MessageInitShape<typeof GetProductOffersResponseSchema>;

/*
 * Offers of a product, from the all-offers display. The request goes to `/gp/offer-listing/ASIN`
 * (the marketplace answers it with the offers display; `pageno` for later pages; the legacy
 * `startIndex` is sent too so both generations of the page paginate).
 */
export function offersQuery(page: number): Record<string, string> | undefined {
  if (page <= 1) return undefined;
  return { pageno: String(page), startIndex: String((page - 1) * 10) };
}

export function createGetProductOffers(resolveAsin: AsinResolver = resolveLookupAsin): OperationHandler<ProductOffersRequest, OffersResponseInit> {
  return async (request, ctx) => {
    const asin = await resolveAsin(request.lookup, ctx);
    const query = offersQuery(request.page);
    const page = await fetchPage(ctx, { path: `/gp/offer-listing/${asin}`, ...(query ? { query } : {}), kind: 'offers', what: 'product' });
    const data = parseOffersPage(page.html, { marketplace: request.marketplace, asin, page: request.page });
    const offers = data.offers ?? [];
    if (offers.length === 0 && !/aod-container|olpOfferList|aod-no-offer|olpProduct/.test(page.html)) {
      throw unparseable('offers', 'neither the offers display nor the offer listing');
    }
    return { retailProduct: { offersPaginated: { offers, pageInfo: data.pageInfo ?? {} } }, meta: metaOf(page) };
  };
}

export const getProductOffers = createGetProductOffers();
