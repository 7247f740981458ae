import { load, type CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

export type { CheerioAPI, AnyNode, Element };

/**
 * Loads a page with cheerio on the htmlparser2 back end (about half the parse time of parse5 on a
 * 1 MB page); `xmlMode: false` keeps HTML semantics (void elements, entities).
 */
export function loadPage(html: string): CheerioAPI {
  return load(html, { xml: { xmlMode: false, decodeEntities: true } });
}

/** Collapses white space (no-break spaces included) and trims; undefined for empty text. */
export function cleanText(text: string | undefined | null): string | undefined {
  if (text == null) return undefined;
  const out = text.replace(/[\s\u00a0\u202f\u200b\u200e\u200f]+/g, ' ').trim();
  return out === '' ? undefined : out;
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

/** Parses JSON, answering undefined instead of throwing (embedded page data can be truncated). */
export function tryJson<T = unknown>(text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
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
