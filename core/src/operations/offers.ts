import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type GetProductOffersRequest, type GetProductOffersResponseSchema } from '@retail/contract';
import { isCoreError } from '../errors.js';
import type { ParsedPage } from '../cache/parsed-pages.js';
import type { OffersPageInit } from '../parsers/offers.js';
import { pageOrFirst, productLookup, type ProductLookupRequest } from '../validation/request-fields.js';
import type { MarkedPage } from '../workers/parser-registry.js';
import { unparseable, type AsinResolver, type PageFetch } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import { resolveLookupAsin } from './product-lookup.js';
import type { OperationContext, OperationHandler } from './types.js';

type OffersResponseInit = MessageInitShape<typeof GetProductOffersResponseSchema>;

export interface ProductOffersRequest extends ProductLookupRequest {
  readonly page: number;
}

const normalizeOffersRequest = (m: GetProductOffersRequest): ProductOffersRequest => ({ ...productLookup(m), page: pageOrFirst(m.page) });

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

async function readOffersPage(ctx: OperationContext, asin: string, page: number): Promise<ParsedPage<MarkedPage<OffersPageInit>>> {
  const read = (fetch: PageFetch) =>
    readPage<MarkedPage<OffersPageInit>>(ctx, fetch, 'offers-page', {
      args: { asin, page },
      usable: ({ data, marked }) => {
        if ((data.offers ?? []).length === 0 && !marked) throw unparseable('offers', 'neither the offers display nor the offer listing');
      },
    });
  try {
    return await read({ path: '/gp/product/ajax', query: aodQuery(asin, page), kind: 'offers', what: 'product' });
  } catch (error) {
    if (ctx.signal.aborted || !isCoreError(error) || error.reason !== ErrorReason.NOT_FOUND) throw error;
    const query = offerListingQuery(page);
    return read({ path: `/gp/offer-listing/${asin}`, ...(query ? { query } : {}), kind: 'offers', what: 'product' });
  }
}

export function createGetProductOffers(resolveAsin: AsinResolver = resolveLookupAsin): OperationHandler<ProductOffersRequest, OffersResponseInit> {
  return async (request, ctx) => {
    const asin = await resolveAsin(request.lookup, ctx);
    const page = await readOffersPage(ctx, asin, request.page);
    const data = page.value.data;
    const offers = data.offers ?? [];
    return { retailProduct: { offersPaginated: { offers, pageInfo: data.pageInfo ?? {} } }, meta: metaOfParsed(page) };
  };
}

export const getProductOffers = createGetProductOffers();

/** GetProductOffers: one page of the offers of the product a lookup key names. */
export const getProductOffersOperation = defineOperation('GetProductOffers', { normalize: normalizeOffersRequest, handle: getProductOffers });
