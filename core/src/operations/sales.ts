import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetSalesEstimateResponseSchema } from '@retail/contract';
import { estimateSales } from '../estimators/sales.js';
import { productLookup, type ProductLookupRequest } from '../validation/request-fields.js';
import type { AsinResolver } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed } from './parsed-pages.js';
import { resolveLookupAsin } from './product-lookup.js';
import { loadProductPageOnly } from './product-pages.js';
import type { OperationHandler } from './types.js';

type SalesResponseInit = MessageInitShape<typeof GetSalesEstimateResponseSchema>;

/*
 * Sales from the product page's best-sellers rank (estimators/sales.ts; docs/estimates.md). A
 * product page without a rank (new or unranked listings) answers an empty estimate: the page was
 * read correctly and there is nothing to estimate from.
 */
export function createGetSalesEstimate(resolveAsin: AsinResolver = resolveLookupAsin): OperationHandler<ProductLookupRequest, SalesResponseInit> {
  return async (request, ctx) => {
    const asin = await resolveAsin(request.lookup, ctx);
    const page = await loadProductPageOnly(asin, ctx);
    const estimate = estimateSales(page.value.ranks, request.marketplace.code);
    if (!estimate) return { retailProduct: { salesEstimate: {} }, meta: metaOfParsed(page) };
    return {
      retailProduct: {
        salesEstimate: {
          weeklyUnitSales: BigInt(estimate.weeklyUnitSales),
          monthlyUnitSales: BigInt(estimate.monthlyUnitSales),
          annualUnitSales: BigInt(estimate.annualUnitSales),
          bestSellersRank: BigInt(estimate.bestSellersRank),
          category: estimate.category,
        },
      },
      meta: metaOfParsed(page),
    };
  };
}

export const getSalesEstimate = createGetSalesEstimate();

/** GetSalesEstimate: the sales estimate of the product a lookup key names. */
export const getSalesEstimateOperation = defineOperation('GetSalesEstimate', { normalize: productLookup, handle: getSalesEstimate });
