import type { Domain } from '@retail/contract';

/** The 13 marketplaces by their `domain` code (docs/contract.md, Enums on the wire). */
export type DomainCode = 'US' | 'UK' | 'CA' | 'DE' | 'FR' | 'IT' | 'ES' | 'AU' | 'IN' | 'MX' | 'BR' | 'JP' | 'PL';

/** Languages the marketplaces' pages are written in; one words file each. */
export type LanguageCode = 'en' | 'de' | 'fr' | 'it' | 'es' | 'pt' | 'ja' | 'pl';

/**
 * How a marketplace writes a price. The digits and grouping positions come from
 * `Intl.NumberFormat(numberLocale, { useGrouping: 'always' })` (that is where Indian lakh grouping
 * comes from); the separator characters and the symbol placement are declared here, so the output
 * does not depend on the ICU version Node ships with.
 */
export interface PriceFormat {
  /** Locale whose grouping positions are used (en-IN groups 1,23,456). */
  readonly numberLocale: string;
  /** Grouping separator exactly as the marketplace writes it (may be U+00A0 or U+202F). */
  readonly group: string;
  /** Decimal separator. */
  readonly decimal: string;
  /** Minor-unit digits shown (0 for JPY). */
  readonly fractionDigits: number;
  /** Where the number goes: e.g. '{number}\u00a0€' or '$' + '{number}'. */
  readonly pattern: string;
}

/**
 * Marketplace words the parsers look for. Data only (strings and regular expressions, no
 * functions), one file per language under ./words; parser authors extend entries there.
 * Regular expressions name their captured number `value` (ratings) or `count` (stock left).
 */
export interface LocaleWords {
  readonly language: LanguageCode;
  /** Rating phrases, e.g. "4.5 out of 5 stars"; the rating is the named group `value`. */
  readonly ratingPatterns: readonly RegExp[];
  /** Words that follow a ratings count ("1,234 ratings"); matched case-insensitively. */
  readonly ratingsCountWords: readonly string[];
  readonly availability: {
    /** Phrases meaning the item can be bought now. */
    readonly inStock: readonly string[];
    /** Phrases meaning it cannot ("Currently unavailable"). */
    readonly outOfStock: readonly string[];
    /** "Only 3 left in stock" and friends; the quantity is the named group `count`. */
    readonly onlyLeftPatterns: readonly RegExp[];
  };
  /** Labels of sponsored results ("Sponsored", "Gesponsert"). */
  readonly sponsored: readonly string[];
  /** Label of the best-sellers rank row on product pages. */
  readonly bestSellersRankLabels: readonly string[];
  /** Labels of product-detail rows, by the field they fill. Compared after trimming, case-insensitively. */
  readonly detailLabels: Readonly<Record<DetailField, readonly string[]>>;
}

/** The product-detail rows the parsers find by their label. */
export type DetailField =
  | 'brand'
  | 'manufacturer'
  | 'isbn10'
  | 'isbn13'
  | 'upc'
  | 'ean'
  | 'asin'
  | 'modelNumber'
  | 'dateFirstAvailable'
  | 'customerReviews';

/** One regional marketplace: where it lives and how it writes things. */
export interface Marketplace {
  readonly code: DomainCode;
  /** The proto `Domain` enum value. */
  readonly domain: Domain;
  /** Storefront host as requested upstream, e.g. 'www.amazon.de'. */
  readonly host: string;
  /** 'https://' + host. */
  readonly origin: string;
  /** Host without `www.`, e.g. 'amazon.de'. */
  readonly bareHost: string;
  /** The marketplace's search-suggestion (autocomplete) host, e.g. 'completion.amazon.co.uk'. */
  readonly suggestionHost: string;
  /**
   * Every host the upstream client may contact for this marketplace: storefront (www and bare)
   * and its own suggestion host. The upstream allow-list is derived from this, nothing else.
   */
  readonly allowedHosts: readonly string[];
  /** The marketplace's obfuscated id (`mid` of the suggestion endpoint). */
  readonly marketplaceId: string;
  /** ISO 4217 code. */
  readonly currency: string;
  /** Symbol as the marketplace shows it ('$', '€', 'R$', '￥' (U+FFE5), 'zł'). */
  readonly currencySymbol: string;
  /** BCP 47 locale of the storefront. */
  readonly locale: string;
  readonly language: LanguageCode;
  readonly priceFormat: PriceFormat;
  readonly words: LocaleWords;
}
