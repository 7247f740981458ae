import type { MessageInitShape } from '@bufbuild/protobuf';
import { ErrorReason, type GetProductResponseSchema } from '@retail/contract';
import { CoreError } from '../errors.js';
import { productLookup, type ProductLookupRequest } from '../validation/request-fields.js';
import { defineOperation } from './operation.js';
import { metaOfParsed } from './parsed-pages.js';
import { resolveGtin } from './product-lookup.js';
import { loadProductPage, type ProductPage } from './product-pages.js';
import type { OperationHandler } from './types.js';

type ProductResponseInit = MessageInitShape<typeof GetProductResponseSchema>;

/**
 * GetProduct: the product record of docs/contract.md from `/dp/ASIN`. A URL lookup arrives as its ASIN; a
 * GTIN is resolved first (and the verified page is reused, not fetched twice).
 */
export const getProduct: OperationHandler<ProductLookupRequest, ProductResponseInit> = async (request, ctx) => {
  let product: ProductPage;
  if (request.lookup.kind === 'asin') {
    product = await loadProductPage(request.lookup.asin, ctx);
  } else {
    const resolution = await resolveGtin(request.lookup.gtin, request.lookup.gtinKind, ctx);
    if (resolution.asin === null || !resolution.product) {
      throw new CoreError(ErrorReason.NOT_FOUND, 'the marketplace has no product with this gtin');
    }
    product = resolution.product;
  }
  return { retailProduct: product.parsed.product, meta: metaOfParsed(product.source) };
};

/** GetProduct: the product a lookup key (ASIN, product URL or GTIN) names. */
export const getProductOperation = defineOperation('GetProduct', { normalize: productLookup, handle: getProduct });
