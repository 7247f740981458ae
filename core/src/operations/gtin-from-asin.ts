import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetGtinFromAsinRequest, GetGtinFromAsinResponseSchema } from '@retail/contract';
import type { DetailRow } from '../parsers/product-details.js';
import { isbn10ToIsbn13, isValidIsbn10, validateAsin, validateGtin } from '../validation/index.js';
import { domainMarketplace, type MarketplaceRequest } from '../validation/request-fields.js';
import { defineOperation } from './operation.js';
import { metaOfParsed } from './parsed-pages.js';
import { identifierRows, loadProductPage } from './product-pages.js';
import type { OperationHandler } from './types.js';

type GtinFromAsinResponseInit = MessageInitShape<typeof GetGtinFromAsinResponseSchema>;

export interface GtinFromAsinRequest extends MarketplaceRequest {
  readonly asin: string;
}

const normalizeGtinFromAsinRequest = (m: GetGtinFromAsinRequest): GtinFromAsinRequest => ({ marketplace: domainMarketplace(m.domain), asin: validateAsin(m.asin, 'asin') });

/** The first valid GTIN among row values ("885734123450", "978-0316769488", "4006381333931 4006381333948"). */
function firstValidGtin(values: readonly string[]): string | undefined {
  for (const value of values) {
    for (const token of value.split(/[\s,;/]+/)) {
      const candidate = token.replace(/-/g, '');
      if (!/^\d{8,14}$/.test(candidate)) continue;
      try {
        return validateGtin(candidate).gtin;
      } catch {
        // Not a GTIN (a model number that happens to be digits); try the next one.
      }
    }
  }
  return undefined;
}

/**
 * The GTIN a product page shows: ISBN-13, then UPC, then EAN rows; for books without an ISBN-13 row,
 * the ISBN-10 (a row, or the ASIN itself when it is one) converted to its 978 ISBN-13.
 */
export function gtinFromRows(rows: readonly DetailRow[], asin: string): string | undefined {
  const found =
    firstValidGtin(identifierRows(rows, 'isbn13')) ??
    firstValidGtin(identifierRows(rows, 'upc')) ??
    firstValidGtin(identifierRows(rows, 'ean'));
  if (found) return found;
  const isbn10 = [...identifierRows(rows, 'isbn10').map((v) => v.replace(/[^0-9Xx]/g, '').toUpperCase()), asin].find(
    (v) => /^\d{9}[\dX]$/.test(v) && isValidIsbn10(v),
  );
  return isbn10 ? isbn10ToIsbn13(isbn10) : undefined;
}

/** GetGtinFromAsin: `{asin, gtin (or null)}` from the product page's identifier rows. */
export const getGtinFromAsin: OperationHandler<GtinFromAsinRequest, GtinFromAsinResponseInit> = async (request, ctx) => {
  const { parsed, source } = await loadProductPage(request.asin, ctx);
  const gtin = gtinFromRows(parsed.detailRows, request.asin);
  return { retailProduct: { asin: request.asin, ...(gtin ? { gtin } : {}) }, meta: metaOfParsed(source) };
};

export const getGtinFromAsinOperation = defineOperation('GetGtinFromAsin', { normalize: normalizeGtinFromAsinRequest, handle: getGtinFromAsin });
