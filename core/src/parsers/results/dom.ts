import { cleanText, loadHtml, tryJson, type AnyNode, type CheerioAPI, type Element } from '../common/dom.js';
import { withDomIndex } from '../common/indexed-query.js';

/*
 * The result-page helpers build on the shared cheerio helpers (parsers/common/dom.ts: htmlparser2
 * back end, white-space and invisible-mark cleaning, lenient JSON) and add what card-style pages
 * need: lookups scoped to one card and ASINs from product links.
 */
export type { AnyNode, CheerioAPI, Element };
export { cleanText, tryJson };

/**
 * Loads a page once (cheerio on htmlparser2) with the shared one-walk index, so page-level
 * selectors rooted in an id, class or tag do not each walk the whole page.
 */
export function loadPage(html: string): CheerioAPI {
  return withDomIndex(loadHtml(html));
}

/** Text of the first element matching one of `selectors` (tried in order) inside `scope`. */
export function firstText($: CheerioAPI, scope: AnyNode | undefined, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    const found = scope ? $(scope).find(selector) : $(selector);
    for (const el of found.toArray()) {
      const text = cleanText($(el).text());
      if (text) return text;
    }
  }
  return undefined;
}

/**
 * Like firstText, but the text is only trimmed: prices keep the marketplace's own no-break spaces
 * (the price reader cleans ordinary white space itself and shows the rest as the page does).
 */
export function firstRawText($: CheerioAPI, scope: AnyNode | undefined, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    const found = scope ? $(scope).find(selector) : $(selector);
    for (const el of found.toArray()) {
      const text = $(el).text().replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
      if (cleanText(text)) return text;
    }
  }
  return undefined;
}

/** Attribute of the first element matching one of `selectors` that carries it. */
export function firstAttr($: CheerioAPI, scope: AnyNode | undefined, selectors: readonly string[], name: string): string | undefined {
  for (const selector of selectors) {
    const found = scope ? $(scope).find(selector) : $(selector);
    for (const el of found.toArray()) {
      const value = cleanText($(el).attr(name));
      if (value) return value;
    }
  }
  return undefined;
}

const ASIN = /^[A-Z0-9]{10}$/;

/** True for a ten-character marketplace product id. */
export function isAsin(value: string | undefined): value is string {
  return value !== undefined && ASIN.test(value);
}

/** The ASIN in a product link (`/dp/X`, `/gp/product/X`, url-encoded redirect links included). */
export function asinFromHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  let decoded = href;
  try {
    decoded = decodeURIComponent(href);
  } catch {
    /* keep the raw link */
  }
  const m = /\/(?:dp|gp\/product|gp\/aw\/d|product-reviews)\/([A-Z0-9]{10})(?:[/?&#]|$)/.exec(decoded);
  return m?.[1];
}
