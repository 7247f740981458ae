import type { AnyNode, CheerioAPI, Element } from './dom.js';

/**
 * A cheerio query function that answers selectors rooted in an id, a class or a tag
 * (`#a .b`, `.c .d`, `script[type=…]`) from indexes of the document, instead of walking the whole
 * document for every selector (css-select keeps no index; a product page is ~10,000–20,000
 * elements and the product parser asks ~80 selectors). The id and tag index is built in one walk;
 * the class index (the costly one: elements carry many classes) only when a class-rooted selector
 * is first asked. Selectors it cannot scope go to cheerio unchanged: the answers are the same,
 * only the time differs.
 */
export function withDomIndex($: CheerioAPI): CheerioAPI {
  const root = $.root().toArray()[0]!;
  const index = buildIndex(root, false);
  let classIndex: Map<string, Element[]> | undefined;

  const candidates = (key: string): readonly Element[] => {
    if (key.startsWith('.')) {
      classIndex ??= buildIndex(root, true);
      return classIndex.get(key) ?? [];
    }
    return index.get(key.startsWith('#') ? key : key.toLowerCase()) ?? [];
  };

  const scoped = (selector: string): AnyNode[] | undefined => {
    const results: AnyNode[][] = [];
    for (const part of splitTopLevel(selector)) {
      const head = /^(#[\w-]+|\.[\w-]+|[a-z][a-z0-9]*)(.*)$/is.exec(part);
      if (!head) return undefined;
      const [, key, rest = ''] = head;
      const compound = /^\S*/.exec(rest)![0];
      const descendant = rest.slice(compound.length).trim();
      if (/^[>+~]/.test(descendant) || /^[>+~]/.test(compound)) return undefined;
      const matches = compoundMatcher(compound) ?? ((el: Element) => $(el).is(compound));
      const found = new Set<AnyNode>();
      for (const el of candidates(key!)) {
        if (compound && !matches(el)) continue;
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

/**
 * A direct test for the common compounds (`.a.b`, `[name="v"]`, `[name]`) without building a
 * cheerio object per candidate; undefined for anything else (cheerio's `is` then decides).
 */
function compoundMatcher(compound: string): ((el: Element) => boolean) | undefined {
  if (compound === '') return () => true;
  const tests: ((el: Element) => boolean)[] = [];
  const token = /\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/g;
  let consumed = 0;
  for (const m of compound.matchAll(token)) {
    if (m.index !== consumed) return undefined;
    consumed += m[0].length;
    const [, cls, attr, value] = m;
    if (cls) tests.push((el) => (` ${el.attribs.class ?? ''} `).replace(/\s+/g, ' ').includes(` ${cls} `));
    else if (value !== undefined) tests.push((el) => el.attribs[attr!] === value);
    else tests.push((el) => el.attribs[attr!] !== undefined);
  }
  if (consumed !== compound.length) return undefined;
  return (el) => tests.every((t) => t(el));
}

/** `#id` and tag name → elements (or `.class` → elements), in document order. */
function buildIndex(root: AnyNode, classes: boolean): Map<string, Element[]> {
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
      if (classes) {
        const cls = el.attribs.class;
        if (cls) for (const name of cls.split(/\s+/)) if (name) add(`.${name}`, el);
      } else {
        add(el.name.toLowerCase(), el);
        if (el.attribs.id) add(`#${el.attribs.id}`, el);
      }
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
