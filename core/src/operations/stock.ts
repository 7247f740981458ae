import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetStockEstimateResponseSchema } from '@retail/contract';
import { estimateStock } from '../estimators/stock.js';
import { productLookup, type ProductLookupRequest } from '../validation/request-fields.js';
import { unparseable, type AsinResolver } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed } from './parsed-pages.js';
import { resolveLookupAsin } from './product-lookup.js';
import { loadProductPageOnly } from './product-pages.js';
import type { OperationHandler } from './types.js';

type StockResponseInit = MessageInitShape<typeof GetStockEstimateResponseSchema>;

/** Stock from the product page's buy box (estimators/stock.ts; docs/estimates.md). */
export function createGetStockEstimate(resolveAsin: AsinResolver = resolveLookupAsin): OperationHandler<ProductLookupRequest, StockResponseInit> {
  return async (request, ctx) => {
    const asin = await resolveAsin(request.lookup, ctx);
    const page = await loadProductPageOnly(asin, ctx);
    const signals = page.value.stock;
    // inStock is required: with neither an availability line nor a buy button there is nothing to read.
    if (!signals.availabilityMessage && !signals.buyable && signals.quantityMax === undefined) {
      throw unparseable('product', 'no availability line, buy button or quantity selector');
    }
    const estimate = estimateStock(signals, request.marketplace);
    const stockEstimate: NonNullable<StockResponseInit['retailProduct']>['stockEstimate'] = { inStock: estimate.inStock };
    if (estimate.offerId) stockEstimate.offerId = estimate.offerId;
    if (estimate.stockLevel !== undefined) stockEstimate.stockLevel = BigInt(estimate.stockLevel);
    if (estimate.availabilityMessage) stockEstimate.availabilityMessage = estimate.availabilityMessage;
    return { retailProduct: { stockEstimate }, meta: metaOfParsed(page) };
  };
}

export const getStockEstimate = createGetStockEstimate();

/** GetStockEstimate: the stock estimate of the product a lookup key names. */
export const getStockEstimateOperation = defineOperation('GetStockEstimate', { normalize: productLookup, handle: getStockEstimate });
