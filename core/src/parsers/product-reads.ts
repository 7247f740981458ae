import { cleanText, type AnyNode, type CheerioAPI, type Element } from './common/dom.js';
import { isTag, textWithout } from './common/node-reads.js';
import { compile } from './common/selector.js';
import { matchComplex } from './common/selector-match.js';
import { selectAll } from './common/page-registry.js';

/*
 * Reads of the product page (and the reviews on it) straight from the DOM nodes, without cheerio
 * wrappers or copies: the page is loaded with the page index (results/dom.ts `loadIndexedPage`)
 * and never changed, so what the parsers used to read as `clone()`, `.find(x).remove()`, `.text()`
 * is the text with the `x` subtrees left out (`textWithout`), and `$(el).find(selector)` is
 * `selectAll` (answered from the index; from cheerio on pages without one).
 */

/**
 * A test for the elements a list of compounds (`script, .a-hidden, [data-hook="x"]`) picks, as
 * css-select decides it: what `.find(selector).remove()` on a copy removes.
 */
export function skipping(selector: string): (el: Element) => boolean {
  const compiled = compile(selector);
  if (!compiled || compiled.some((complex) => complex.length !== 1)) throw new Error(`not a list of compounds: ${selector}`);
  return (el) => compiled.some((complex) => matchComplex(el, complex, 0, el));
}

/** What the visible text leaves out: script, style and noscript content. */
export const isHidden = skipping('script, style, noscript');

/** The visible text of a node (common/dom.ts `visibleText`, without the copy); undefined when empty or missing. */
export function visibleTextOf(node: AnyNode | undefined): string | undefined {
  return node ? cleanText(textWithout(node, isHidden)) : undefined;
}

/** The first element `selector` finds below `scope` (the whole page when undefined). */
export function first($: CheerioAPI, scope: AnyNode | undefined, selector: string): Element | undefined {
  return selectAll($, scope, selector)[0] as Element | undefined;
}

/** Visible text of the first element, among selectors tried in order, that has some (common/dom.ts `firstVisibleText`). */
export function firstVisible($: CheerioAPI, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    for (const el of selectAll($, undefined, selector)) {
      const text = visibleTextOf(el);
      if (text) return text;
    }
  }
  return undefined;
}

/** The nearest of `el` and its element ancestors that `test` picks (cheerio's `closest`). */
export function closestOf(el: AnyNode, test: (el: Element) => boolean): Element | undefined {
  for (let node: AnyNode | null = el; node && isTag(node); node = node.parent) if (test(node)) return node;
  return undefined;
}
