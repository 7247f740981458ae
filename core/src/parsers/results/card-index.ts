import { hasToken } from '../common/class-tokens.js';
import type { PageIndex } from '../common/page-index.js';
import type { Page } from '../common/page.js';
import type { AnyNode, Element } from './dom.js';

/*
 * The elements of one result card. Card readers ask ~25 questions per card; answering each with a
 * cheerio selector walks the card again and recompiles the selector (about 0.1 ms per card and
 * question on a 2026 search page), so the readers filter these lists instead. On a page with an
 * index (common/page.ts `loadIndexedPage`) holding the card, the lists are ranges of the index's
 * sorted lists (no walk per card); otherwise they are collected in one walk of the card.
 */
export interface CardIndex {
  /** Every element below the card, in document order. */
  readonly all: readonly Element[];
  byClass(name: string): Element[];
  byTag(name: string): Element[];
}

const cache = new WeakMap<AnyNode, CardIndex>();

export function cardIndex(page: Page, card: AnyNode): CardIndex {
  const cached = cache.get(card);
  if (cached) return cached;
  const index = page.index?.holds(card) ? rangeIndex(page.index, card) : walkIndex(card);
  cache.set(card, index);
  return index;
}

function rangeIndex(page: PageIndex, card: AnyNode): CardIndex {
  const [from, to] = page.range(card);
  return new RangeIndex(page, from, to);
}

/** The card's lists cut out of the page index: the elements numbered inside the card's subtree. */
class RangeIndex implements CardIndex {
  private elements: Element[] | undefined;

  constructor(
    private readonly page: PageIndex,
    private readonly from: number,
    private readonly to: number,
  ) {}

  get all(): readonly Element[] {
    return (this.elements ??= this.page.elements.slice(this.from, this.to + 1));
  }

  byClass(name: string): Element[] {
    return this.page.slice(this.page.cls(name), this.from, this.to);
  }

  byTag(name: string): Element[] {
    return this.page.slice(this.page.tag(name), this.from, this.to);
  }
}

function walkIndex(card: AnyNode): CardIndex {
  const all: Element[] = [];
  const classes = new Map<string, Element[]>();
  const tags = new Map<string, Element[]>();
  const push = (map: Map<string, Element[]>, key: string, el: Element) => {
    const list = map.get(key);
    if (list) list.push(el);
    else map.set(key, [el]);
  };
  const stack: AnyNode[] = [...((card as { children?: AnyNode[] }).children ?? [])].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ('attribs' in node && node.attribs) {
      const el = node;
      all.push(el);
      push(tags, el.name.toLowerCase(), el);
      const cls = el.attribs.class;
      if (cls) for (const name of cls.split(/\s+/)) if (name) push(classes, name, el);
    }
    const children = (node as { children?: AnyNode[] }).children;
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return {
    all,
    byClass: (name) => classes.get(name) ?? [],
    byTag: (name) => tags.get(name) ?? [],
  };
}

export function hasClass(el: AnyNode | null | undefined, name: string): boolean {
  const cls = el && 'attribs' in el ? el.attribs.class : undefined;
  return cls !== undefined && hasToken(cls, name);
}

export function attr(el: Element, name: string): string | undefined {
  return el.attribs[name];
}

/** The nearest ancestor of `el` (below `stop`) that satisfies `test`. */
export function closest(el: AnyNode, stop: AnyNode, test: (node: Element) => boolean): Element | undefined {
  let node = el.parent as AnyNode | null;
  while (node && node !== stop) {
    if ('attribs' in node && test(node)) return node;
    node = node.parent;
  }
  return undefined;
}
