import type { AnyNode, Element } from 'domhandler';

/*
 * Text and attributes read straight from the DOM nodes, answering exactly as cheerio's `.text()`
 * and `.attr()` do in HTML mode, without building a wrapper per node.
 */

/** The node is an element as cheerio counts them (script and style included). */
export const isTag = (node: AnyNode): node is Element => node.type === 'tag' || node.type === 'script' || node.type === 'style';

/** The element carries attribute `name` itself (an inherited `toString` does not count). */
export function hasAttribute(el: Element, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(el.attribs, name) && el.attribs[name] != null;
}

const keepAll = (): boolean => false;

/** The text of a node and its descendants, as cheerio's `.text()` of that one node answers it ('' for none). */
export function textOf(node: AnyNode | undefined): string {
  return textWithout(node, keepAll);
}

/**
 * The text of a node leaving out the descendants `skip` picks (their whole subtree): what
 * `$(node).clone()`, `.find(selector).remove()` on the clone and `.text()` answer, without the copy.
 */
export function textWithout(node: AnyNode | undefined, skip: (el: Element) => boolean): string {
  if (!node) return '';
  if (node.type === 'text') return (node as { data: string }).data;
  const children = (node as { children?: AnyNode[] }).children;
  if (!children || !Object.prototype.hasOwnProperty.call(node, 'children')) return '';
  let out = '';
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type === 'text') out += (child as { data: string }).data;
    else if (!(isTag(child) && skip(child))) out += textWithout(child, skip);
  }
  return out;
}

const BOOLEAN_ATTRIBUTE = /^(?:autofocus|autoplay|async|checked|controls|defer|disabled|hidden|loop|multiple|open|readonly|required|scoped|selected)$/i;

/** An element's attribute exactly as cheerio's `$(node).attr(name)` reads it in HTML mode, without the wrapper. */
export function attrOf(node: AnyNode | null | undefined, name: string): string | undefined {
  if (!node || !isTag(node)) return undefined;
  const attribs = node.attribs;
  if (Object.prototype.hasOwnProperty.call(attribs, name)) return BOOLEAN_ATTRIBUTE.test(name) ? name : attribs[name];
  if (name === 'value') {
    if (node.name === 'option') return textOf(node);
    if (node.name === 'input' && (attribs.type === 'radio' || attribs.type === 'checkbox')) return 'on';
  }
  return undefined;
}

/** The nearest of `el` and its element ancestors that `test` picks (cheerio's `closest`). */
export function closestOf(el: AnyNode, test: (el: Element) => boolean): Element | undefined {
  for (let node: AnyNode | null = el; node && isTag(node); node = node.parent) if (test(node)) return node;
  return undefined;
}
