import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CacheStatus, type GetAsinFromGtinResponseSchema } from '@retail/contract';
import type { AsinFromGtinRequest } from '../validation/types.js';
import { resolveGtin } from './product-lookup.js';
import type { OperationHandler } from './types.js';

type AsinFromGtinResponseInit = MessageInitShape<typeof GetAsinFromGtinResponseSchema>;

/**
 * GetAsinFromGtin: `{asin (or null), gtin}` and nothing else. ISBNs resolve through their ISBN-10
 * product page; other GTIN kinds answer UNIMPLEMENTED until the search parser lands.
 */
export const getAsinFromGtin: OperationHandler<AsinFromGtinRequest, AsinFromGtinResponseInit> = async (request, ctx) => {
  const resolution = await resolveGtin(request.gtin, request.gtinKind, ctx);
  const page = resolution.product?.page;
  return {
    retailProduct: { ...(resolution.asin !== null ? { asin: resolution.asin } : {}), gtin: request.gtin },
    meta: {
      cache: page?.fromCache ? CacheStatus.HIT : CacheStatus.MISS,
      retrievedAt: timestampFromDate(resolution.checkedAt),
    },
  };
};
