import type { AnyNode, Element } from './dom.js';
import { isTag } from './node-reads.js';

/** What the one walk over a page lists (page-index.ts builds everything else from it on first use). */
export interface PageElements {
  /** Every element in document order (pre-order): an element's number is its place here. */
  readonly elements: Element[];
  /** The non-empty class attributes in document order … */
  readonly classParts: readonly string[];
  /** … and the numbers of the elements that carry them. */
  readonly classOwners: readonly number[];
  /** Whether the elements carry increasing `startIndex` offsets (pages loaded with them). */
  readonly ordered: boolean;
}

/**
 * Lists the elements below `root`. The walk only lists: a fresh page's DOM is still in the young
 * generation, and every allocation here makes the collector copy it again.
 */
export function listElements(root: AnyNode): PageElements {
  const elements: Element[] = [];
  const classParts: string[] = [];
  const classOwners: number[] = [];
  let ordered = true;
  let previous = -1;
  // Iterative pre-order walk (pages may nest deeply): one frame per open parent.
  const parents: AnyNode[][] = [(root as { children?: AnyNode[] }).children ?? []];
  const next: number[] = [0];
  while (parents.length > 0) {
    const top = parents.length - 1;
    const children = parents[top]!;
    const i = next[top]!++;
    if (i >= children.length) {
      parents.pop();
      next.pop();
      continue;
    }
    const child = children[i]!;
    if (!isTag(child)) continue;
    const cls = child.attribs.class;
    if (cls) {
      classParts.push(cls);
      classOwners.push(elements.length);
    }
    elements.push(child);
    const start = child.startIndex;
    if (ordered) {
      if (typeof start === 'number' && start > previous) previous = start;
      else ordered = false;
    }
    if (child.children.length > 0) {
      parents.push(child.children);
      next.push(0);
    }
  }
  return { elements, classParts, classOwners, ordered };
}
