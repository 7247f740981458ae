import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetProductVariantsResponseSchema } from '@retail/contract';
import { productLookup, type ProductLookupRequest } from '../validation/request-fields.js';
import type { AsinResolver } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed } from './parsed-pages.js';
import { resolveLookupAsin } from './product-lookup.js';
import { loadProductPageOnly } from './product-pages.js';
import type { OperationHandler } from './types.js';

type VariantsResponseInit = MessageInitShape<typeof GetProductVariantsResponseSchema>;

/** Variants come from the product page (one fetch shared, through the page cache, with product, stock, sales and top reviews). */
export function createGetProductVariants(resolveAsin: AsinResolver = resolveLookupAsin): OperationHandler<ProductLookupRequest, VariantsResponseInit> {
  return async (request, ctx) => {
    const asin = await resolveAsin(request.lookup, ctx);
    const page = await loadProductPageOnly(asin, ctx);
    // A product without variations has an empty list: that is an answer, not an error.
    return { retailProduct: { variants: page.value.variants.variants ?? [] }, meta: metaOfParsed(page) };
  };
}

export const getProductVariants = createGetProductVariants();

/** GetProductVariants: the variations of the product a lookup key names. */
export const getProductVariantsOperation = defineOperation('GetProductVariants', { normalize: productLookup, handle: getProductVariants });
