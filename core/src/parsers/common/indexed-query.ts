import type { AnyNode, CheerioAPI, Element } from './dom.js';

/**
 * A cheerio query function that answers selectors rooted in an id, a class or a tag
 * (`#a .b`, `.c .d`, `script[type=…]`) from an index built in one walk of the document, instead of
 * walking the whole document for every selector (css-select keeps no index; a product page is
 * ~20,000 elements and the product parser asks ~80 selectors). Selectors it cannot scope go to
 * cheerio unchanged: the answers are the same, only the time differs.
 */
export function withDomIndex($: CheerioAPI): CheerioAPI {
  const index = buildIndex($.root().toArray()[0]!);

  const scoped = (selector: string): AnyNode[] | undefined => {
    const results: AnyNode[][] = [];
    for (const part of splitTopLevel(selector)) {
      const head = /^(#[\w-]+|\.[\w-]+|[a-z][a-z0-9]*)(.*)$/is.exec(part);
      if (!head) return undefined;
      const [, key, rest = ''] = head;
      const compound = /^\S*/.exec(rest)![0];
      const descendant = rest.slice(compound.length).trim();
      if (/^[>+~]/.test(descendant) || /^[>+~]/.test(compound)) return undefined;
      const found = new Set<AnyNode>();
      for (const el of index.get(key!.startsWith('#') || key!.startsWith('.') ? key! : key!.toLowerCase()) ?? []) {
        if (compound && !$(el).is(compound)) continue;
        if (descendant) for (const node of $(el).find(descendant).toArray()) found.add(node);
        else found.add(el);
      }
      results.push([...found]);
    }
    const nonEmpty = results.filter((r) => r.length > 0);
    // Several parts matching: let cheerio merge them in document order.
    if (nonEmpty.length > 1) return undefined;
    return nonEmpty[0] ?? [];
  };

  const query = ((selector: unknown, ...rest: unknown[]) => {
    if (typeof selector === 'string' && rest.length === 0) {
      const nodes = scoped(selector.trim());
      if (nodes) return $(nodes);
    }
    return ($ as unknown as (...args: unknown[]) => unknown)(selector, ...rest);
  }) as unknown as CheerioAPI;
  return Object.assign(query, $);
}

/** `#id`, `.class` and tag name → elements, in document order. */
function buildIndex(root: AnyNode): Map<string, Element[]> {
  const index = new Map<string, Element[]>();
  const add = (key: string, el: Element) => {
    const list = index.get(key);
    if (list) list.push(el);
    else index.set(key, [el]);
  };
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ('attribs' in node && node.attribs) {
      const el = node as Element;
      add(el.name.toLowerCase(), el);
      const { id, class: cls } = el.attribs;
      if (id) add(`#${id}`, el);
      if (cls) for (const name of cls.split(/\s+/)) if (name) add(`.${name}`, el);
    }
    const children = (node as { children?: AnyNode[] }).children;
    // Reverse push keeps document order when popping.
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return index;
}

/** Splits a selector list on top-level commas (not inside brackets or parentheses). */
function splitTopLevel(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(selector.slice(start).trim());
  return parts.filter(Boolean);
}
