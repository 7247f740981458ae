import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CacheStatus, type GetAsinFromGtinRequest, type GetAsinFromGtinResponseSchema } from '@retail/contract';
import { type GtinKind, validateGtin } from '../validation/gtin.js';
import { domainMarketplace, type MarketplaceRequest } from '../validation/request-fields.js';
import { defineOperation } from './operation.js';
import { metaOfParsed } from './parsed-pages.js';
import { resolveGtin } from './product-lookup.js';
import type { OperationHandler } from './types.js';

type AsinFromGtinResponseInit = MessageInitShape<typeof GetAsinFromGtinResponseSchema>;

export interface AsinFromGtinRequest extends MarketplaceRequest {
  readonly gtin: string;
  readonly gtinKind: GtinKind;
}

function normalizeAsinFromGtinRequest(m: GetAsinFromGtinRequest): AsinFromGtinRequest {
  const { gtin, kind } = validateGtin(m.gtin, 'gtin');
  return { marketplace: domainMarketplace(m.domain), gtin, gtinKind: kind };
}

/**
 * GetAsinFromGtin: `{asin (or null), gtin}` and nothing else. ISBNs resolve through their ISBN-10
 * product page, other GTIN kinds (and ISBNs that page does not confirm) through marketplace search
 * verified on the candidates' product pages (product-lookup.ts, gtin-search.ts).
 */
export const getAsinFromGtin: OperationHandler<AsinFromGtinRequest, AsinFromGtinResponseInit> = async (request, ctx) => {
  const resolution = await resolveGtin(request.gtin, request.gtinKind, ctx);
  return {
    retailProduct: { ...(resolution.asin !== null ? { asin: resolution.asin } : {}), gtin: request.gtin },
    // No page at all (the marketplace has no candidate): nothing came from cache, checked now.
    meta: resolution.sources.length > 0 ? metaOfParsed(...resolution.sources) : { cache: CacheStatus.MISS, retrievedAt: timestampFromDate(new Date()) },
  };
};

export const getAsinFromGtinOperation = defineOperation('GetAsinFromGtin', { normalize: normalizeAsinFromGtinRequest, handle: getAsinFromGtin });
