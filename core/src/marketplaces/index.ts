export type { DomainCode, LanguageCode, LocaleWords, Marketplace, PriceFormat } from './types.js';
export {
  ALLOWED_UPSTREAM_HOSTS,
  MARKETPLACES,
  findMarketplaceByCode,
  marketplaceByCode,
  marketplaceByDomain,
  marketplaceByHost,
} from './registry.js';
export { interpretNumberToken, numberTokens, parseCount, parseLocaleNumber, parseRating, toAsciiDigits } from './numbers.js';
export { type ParsePriceOptions, type ParsedPrice, formatPriceDisplay, parsePrice } from './price.js';
export { WORDS } from './words/index.js';
