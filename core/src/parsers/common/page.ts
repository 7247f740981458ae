import { cleanText, loadHtml, visibleText, type AnyNode, type Cheerio, type CheerioAPI, type Element } from './dom.js';
import { attrOf } from './node-reads.js';
import { PageIndex } from './page-index.js';

/*
 * A loaded marketplace page as the parsers receive it: `(page, context) → record`. Whether a
 * selector is answered by the page index (page-index.ts) or by cheerio is the page's own property,
 * chosen where it is loaded; nothing is registered elsewhere and cheerio is not patched.
 */
export interface Page {
  /** The HTML the page was loaded from (some fields are read from inline scripts as text). */
  readonly html: string;
  /** cheerio on the page: wrapping nodes, traversals, clones, and selectors the index does not answer. */
  readonly $: CheerioAPI;
  /** The page index; absent on pages loaded without one (loadPlainPage). */
  readonly index: PageIndex | undefined;
}

/**
 * Loads a page for a parser that only reads it: cheerio on htmlparser2 with start offsets, plus the
 * page index, so selectors answer from sorted element lists instead of walking the page or the
 * card per selector. The page itself must not be changed afterwards (`.remove()` and the like;
 * clones are fine): the lists would go stale.
 */
export function loadIndexedPage(html: string): Page {
  const $ = loadHtml(html, { withStartIndices: true });
  return { html, $, index: new PageIndex($._root) };
}

/** Loads a page without the index: every selector goes to cheerio (parsers not measured with the index). */
export function loadPlainPage(html: string): Page {
  return { html, $: loadHtml(html), index: undefined };
}

/**
 * The elements matching `selector` inside `scope` (the whole page when undefined), in document
 * order: from the page's index when it answers (the page has one, the selector is in its subset and
 * the scope is one of its nodes, not a clone), else from cheerio.
 */
export function selectAll(page: Page, scope: AnyNode | undefined, selector: string): AnyNode[] {
  const found = page.index?.select(selector, scope);
  if (found) return found;
  return (scope ? page.$(scope).find(selector) : page.$(selector)).toArray();
}

/** The first element `selector` finds inside `scope` (the whole page when undefined). */
export function selectFirst(page: Page, scope: AnyNode | undefined, selector: string): Element | undefined {
  return selectAll(page, scope, selector)[0] as Element | undefined;
}

/** `$(selector)` of the whole page as a cheerio selection, its elements found through the index when it answers. */
export function query(page: Page, selector: string): Cheerio<AnyNode> {
  const found = page.index?.select(selector);
  return found ? page.$(found) : page.$(selector);
}

/** Visible text of the first element, among selectors tried in order, that has some. */
export function firstVisibleText(page: Page, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    for (const el of selectAll(page, undefined, selector)) {
      const text = visibleText(el);
      if (text) return text;
    }
  }
  return undefined;
}

/** First non-empty attribute value among elements matching selectors (tried in order) inside `scope`. */
export function firstAttr(page: Page, scope: AnyNode | undefined, selectors: readonly string[], name: string): string | undefined {
  for (const selector of selectors) {
    for (const el of selectAll(page, scope, selector)) {
      const value = cleanText(attrOf(el, name));
      if (value) return value;
    }
  }
  return undefined;
}
