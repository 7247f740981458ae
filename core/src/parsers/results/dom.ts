import { cleanText, tryJson, type AnyNode, type Element } from '../common/dom.js';
import { attrOf, textOf } from '../common/node-reads.js';
import { selectAll, type Page } from '../common/page.js';

/*
 * The result-page helpers build on the shared cheerio helpers (parsers/common/dom.ts: htmlparser2
 * back end, white-space and invisible-mark cleaning, lenient JSON) and add what card-style pages
 * need: lookups scoped to one card and ASINs from product links.
 */
export type { AnyNode, Element };
export { attrOf, cleanText, textOf, tryJson };

/** Text of the first element matching one of `selectors` (tried in order) inside `scope`. */
export function firstText(page: Page, scope: AnyNode | undefined, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    for (const el of selectAll(page, scope, selector)) {
      const text = cleanText(textOf(el));
      if (text) return text;
    }
  }
  return undefined;
}

/**
 * Like firstText, but the text is only trimmed: prices keep the marketplace's own no-break spaces
 * (the price reader cleans ordinary white space itself and shows the rest as the page does).
 */
export function firstRawText(page: Page, scope: AnyNode | undefined, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    for (const el of selectAll(page, scope, selector)) {
      const text = textOf(el).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
      if (cleanText(text)) return text;
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
