import type { AnyNode, CheerioAPI, Element } from './dom.js';
import { PageIndex } from './page-index.js';

/*
 * Which page index belongs to which loaded page, so helpers given only `$` or a node of the page
 * answer from the index (page-index.ts) and fall back to cheerio for pages without one. Weak maps:
 * an index lives as long as its page.
 */

const byRoot = new WeakMap<AnyNode, PageIndex>();
const byApi = new WeakMap<object, PageIndex>();

/** Indexes the page `$` has loaded, registered so helpers given `$` or one of its nodes find it. */
export function indexPage($: CheerioAPI): PageIndex {
  const root = $._root;
  const index = new PageIndex(root);
  byRoot.set(root, index);
  byApi.set($, index);
  return index;
}

/** Registers a wrapper query function of an indexed page (see results/dom.ts `loadIndexedPage`). */
export function registerPageApi($: CheerioAPI, index: PageIndex): void {
  byApi.set($, index);
}

export function pageIndexOfApi($: CheerioAPI): PageIndex | undefined {
  return byApi.get($);
}

/** The index of the page a node belongs to, when that page was indexed (undefined for clones and unindexed pages). */
export function pageIndexOf(node: AnyNode): PageIndex | undefined {
  let top: AnyNode = node;
  while (top.parent) top = top.parent;
  const index = byRoot.get(top);
  return index && (node === top || index.position(node) >= 0) ? index : undefined;
}

/**
 * The elements matching `selector` inside `scope` (the whole page when undefined), in document
 * order: from the page's index when it has one, else from cheerio.
 */
export function selectAll($: CheerioAPI, scope: AnyNode | undefined, selector: string): AnyNode[] {
  const index = scope ? pageIndexOf(scope) : pageIndexOfApi($);
  const found = index?.select(selector, scope);
  if (found) return found;
  return (scope ? $(scope).find(selector) : $(selector)).toArray();
}

/** The first element `selector` finds inside `scope` (the whole page when undefined). */
export function selectFirst($: CheerioAPI, scope: AnyNode | undefined, selector: string): Element | undefined {
  return selectAll($, scope, selector)[0] as Element | undefined;
}
