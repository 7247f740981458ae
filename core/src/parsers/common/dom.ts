import { load, type CheerioAPI, type Cheerio } from 'cheerio/slim';
import type { AnyNode, Element } from 'domhandler';

import { textWithout } from './node-reads.js';

export type { CheerioAPI, Cheerio, AnyNode, Element };

/**
 * Loads a marketplace page with cheerio on the htmlparser2 back end (`cheerio/slim` never loads
 * parse5; about half the parse time on a 1 MB page). HTML mode: void elements and entities as
 * browsers read them. `withStartIndices` also records each node's offset in the HTML
 * (`node.startIndex`, in document order; the page index uses it to number elements).
 */
export function loadHtml(html: string, options: { withStartIndices?: boolean } = {}): CheerioAPI {
  return load(html, { xml: { xmlMode: false, decodeEntities: true, ...(options.withStartIndices ? { withStartIndices: true } : {}) } });
}

/** Invisible direction marks and zero-width characters the marketplace sprinkles into labels. */
const INVISIBLES = /[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g;

/** Removes invisible marks, collapses white space (no-break kinds included) and trims; undefined when empty. */
export function cleanText(text: string | undefined | null): string | undefined {
  if (text == null) return undefined;
  const out = text.replace(INVISIBLES, '').replace(/\s+/g, ' ').trim();
  return out === '' ? undefined : out;
}

/** Content a page does not show: script, style and noscript (old pages inline scripts in bylines). */
export const isHiddenContent = (el: Element): boolean => el.name === 'script' || el.name === 'style' || el.name === 'noscript';

/**
 * The visible text of an element, cleaned: its text without script, style and noscript content,
 * read from the nodes (no copy of the element); undefined when empty or missing.
 */
export function visibleText(el: AnyNode | undefined): string | undefined {
  return cleanText(textWithout(el, isHiddenContent));
}

/** JSON.parse that answers undefined for malformed input (embedded page data may be cut off). */
export function tryJson<T = unknown>(text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Absolute URL on the marketplace for an href found on its page; undefined for other hosts or junk. */
export function absoluteUrl(href: string | undefined, origin: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
