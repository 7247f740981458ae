import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetProductVariantsResponseSchema } from '@retail/contract';
import { parseVariantsPage } from '../parsers/variants.js';
import type { ProductLookupRequest } from '../validation/types.js';
import { fetchPage, looksLikeProductPage, metaOf, unparseable, type AsinResolver } from './fetch-parse.js';
import { resolveLookupAsin } from './product-lookup.js';
import type { OperationHandler } from './types.js';

type VariantsResponseInit = MessageInitShape<typeof GetProductVariantsResponseSchema>;

/** Variants come from the product page (one fetch shared, through the page cache, with product, stock, sales and top reviews). */
export function createGetProductVariants(resolveAsin: AsinResolver = resolveLookupAsin): OperationHandler<ProductLookupRequest, VariantsResponseInit> {
  return async (request, ctx) => {
    const asin = await resolveAsin(request.lookup, ctx);
    const page = await fetchPage(ctx, { path: `/dp/${asin}`, kind: 'product', what: 'product' });
    if (!looksLikeProductPage(page.html)) throw unparseable('product', 'no product markers on the page');
    // A product without variations has an empty list: that is an answer, not an error.
    const data = parseVariantsPage(page.html, { marketplace: request.marketplace, asin });
    return { retailProduct: { variants: data.variants ?? [] }, meta: metaOf(page) };
  };
}

export const getProductVariants = createGetProductVariants();
