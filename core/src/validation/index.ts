export { validateAsin, isAsin } from './asin.js';
export { type GtinKind, type ValidGtin, gs1CheckDigit, isValidIsbn10, isbn10ToIsbn13, isbn13ToIsbn10, validateGtin } from './gtin.js';
export { type BestSellersUrl, type ProductUrl, checkMarketplaceUrl, parseBestSellersUrl, parseProductUrl } from './url.js';
export { checkDeclaredRules } from './rules.js';
export * from './request-fields.js';
