import { canBeToken } from './class-tokens.js';
import { ClassText } from './class-text.js';
import type { AnyNode, Element } from './dom.js';
import { hasAttribute, isTag } from './node-reads.js';
import { listElements } from './page-walk.js';
import { compile, type Compound } from './selector.js';
import { matchComplex } from './selector-match.js';
import { appendTo, lowerBound, NO_NUMBERS, partitionPoint, shorter, sortUnique, upperBound } from './sorted-lists.js';

/*
 * A one-walk index of a loaded page and a selector engine on it, for parsers that only read the
 * page. cheerio (css-select) keeps no index: every `$(selector)` walks the whole document and
 * every `$(el).find(selector)` walks the element's subtree, after compiling the selector again.
 * A result page asks a few selectors per card of 30–60 cards, so on search, best-seller and offers
 * pages that was most of the extraction time.
 *
 * The index numbers the elements in document order (pre-order): an element's subtree is a range
 * of numbers (its own number + 1 up to its last descendant's), so "the `.x` below this card" is a
 * binary search in the page's sorted `.x` list. One walk (page-walk.ts) lists the elements (and
 * their class attributes); tag, id, class and attribute lists are built on first use. Pages loaded
 * with `startIndex` offsets (page.ts `loadIndexedPage`) find an element's number by binary
 * search on them, other pages through a map built on first use.
 *
 * `select` answers the selector subset of selector.ts exactly as cheerio would (matching in
 * selector-match.ts) and undefined for anything else, so the caller asks cheerio. The page must
 * not be changed after indexing (the lists would go stale): the parsers that use it only read.
 * A page carries its index (page.ts `Page`), so parsers given the page find it.
 */

/** Rightmost-part candidates above which the parts to the left are used to narrow the search. */
const ANCHOR_THRESHOLD = 32;

export class PageIndex {
  /** Every element in document order. */
  readonly elements: Element[];
  /** Whether the elements carry increasing `startIndex` offsets (see page-walk.ts). */
  private readonly ordered: boolean;
  /** Element → number, built on first use when the page has no start offsets. */
  private positions: Map<AnyNode, number> | undefined;
  /** Scope → number of its last descendant, for the scopes asked about. */
  private readonly ends = new Map<AnyNode, number>();
  private readonly tags = new Map<string, number[]>();
  private ids: Map<string, number[]> | undefined;
  private readonly classes = new Map<string, number[]>();
  private readonly attributes = new Map<string, number[]>();
  private readonly classSubstrings = new Map<string, number[]>();
  private readonly candidateLists = new Map<Compound, readonly number[]>();
  private readonly ranges = new Map<AnyNode, [number, number]>();
  private readonly all: number[] = [];
  /** Class attributes (non-empty) and their elements' numbers, joined into `classText` on first use. */
  private readonly classParts: readonly string[];
  private readonly classOwners: readonly number[];

  constructor(readonly root: AnyNode) {
    const walk = listElements(root);
    this.elements = walk.elements;
    this.classParts = walk.classParts;
    this.classOwners = walk.classOwners;
    this.ordered = walk.ordered;
  }

  /** The element's number, -1 for a node outside the index (the document, a text node, a clone). */
  position(node: AnyNode): number {
    const { elements } = this;
    if (this.ordered) {
      // Start offsets increase in document order: a binary search finds the element.
      const start = node.startIndex;
      if (typeof start !== 'number') return -1;
      const lo = partitionPoint(elements.length, (i) => elements[i]!.startIndex! < start);
      return lo < elements.length && elements[lo] === node ? lo : -1;
    }
    if (!this.positions) {
      this.positions = new Map();
      for (let i = 0; i < elements.length; i++) this.positions.set(elements[i]!, i);
    }
    return this.positions.get(node) ?? -1;
  }

  /** The node is this page's root or one of its elements (not a clone, not another page's node). */
  holds(node: AnyNode): boolean {
    return node === this.root || this.position(node) >= 0;
  }

  /** Numbers of the elements below `scope` (its descendants): [from, to]. The whole page for the root. */
  range(scope: AnyNode): readonly [number, number] {
    return this.rangeOf(scope) ?? [0, -1];
  }

  /** Like `range`, undefined for a node outside the index. */
  private rangeOf(scope: AnyNode): readonly [number, number] | undefined {
    if (scope === this.root) return [0, this.elements.length - 1];
    let range = this.ranges.get(scope);
    if (!range) {
      const p = this.position(scope);
      if (p < 0) return undefined;
      range = [p + 1, this.end(scope as Element, p)];
      this.ranges.set(scope, range);
    }
    return range;
  }

  /** The number of the last element below `el` (number `p`): down its last element children. */
  private end(el: Element, p: number): number {
    let end = this.ends.get(el);
    if (end === undefined) {
      let last: Element = el;
      for (;;) {
        const children = last.children;
        let i = children.length - 1;
        while (i >= 0 && !isTag(children[i]!)) i--;
        if (i < 0) break;
        last = children[i] as Element;
      }
      end = last === el ? p : this.position(last);
      this.ends.set(el, end);
    }
    return end;
  }

  tag(name: string): readonly number[] {
    let list = this.tags.get(name);
    if (!list) {
      list = [];
      const { elements } = this;
      for (let i = 0; i < elements.length; i++) if (elements[i]!.name === name) list.push(i);
      this.tags.set(name, list);
    }
    return list;
  }

  id(id: string): readonly number[] {
    if (!this.ids) {
      this.ids = new Map();
      const { elements } = this;
      for (let i = 0; i < elements.length; i++) {
        const value = elements[i]!.attribs.id;
        if (value !== undefined) appendTo(this.ids, value, i);
      }
    }
    return this.ids.get(id) ?? NO_NUMBERS;
  }

  /** Elements whose class list holds `name` (as css-select's `[class~=name]` reads it). */
  cls(name: string): readonly number[] {
    let list = this.classes.get(name);
    if (!list) {
      list = canBeToken(name) ? this.classText().owners(name, true) : [];
      this.classes.set(name, list);
    }
    return list;
  }

  private joinedClasses: ClassText | undefined;

  private classText(): ClassText {
    return (this.joinedClasses ??= new ClassText(this.classParts, this.classOwners));
  }

  /** Elements that carry attribute `name`. */
  attr(name: string): readonly number[] {
    let list = this.attributes.get(name);
    if (!list) {
      list = [];
      const { elements } = this;
      for (let i = 0; i < elements.length; i++) if (hasAttribute(elements[i]!, name)) list.push(i);
      this.attributes.set(name, list);
    }
    return list;
  }

  allElements(): readonly number[] {
    if (this.all.length !== this.elements.length) for (let i = this.all.length; i < this.elements.length; i++) this.all.push(i);
    return this.all;
  }

  /** The elements of a sorted number list that fall in [from, to], in document order. */
  slice(list: readonly number[], from: number, to: number): Element[] {
    const out: Element[] = [];
    for (let i = lowerBound(list, from); i < list.length && list[i]! <= to; i++) out.push(this.elements[list[i]!]!);
    return out;
  }

  /**
   * The elements matching `selector` below `scope` (the document root when omitted), in document
   * order, exactly as `$(scope).find(selector)` / `$(selector)` answers; undefined for a selector
   * outside the supported subset.
   */
  select(selector: string, scope: AnyNode = this.root): Element[] | undefined {
    const compiled = compile(selector);
    if (!compiled) return undefined;
    const range = this.rangeOf(scope);
    if (!range) return undefined;
    const [from, to] = range;
    if (to < from) return [];
    // cheerio scopes the selector to the context element only when it is an element below another
    // element; from the document (or a top-level element) ancestors are not bounded.
    const bound = scope !== this.root && isTag(scope) && scope.parent && isTag(scope.parent) ? scope : undefined;
    const found: number[] = [];
    complexes: for (const complex of compiled) {
      const last = complex.length - 1;
      // Every part must match some element of the page: a part without candidates (`#pagn` on a
      // page without it) ends the search before the rightmost part's list is built.
      let narrowest: readonly number[] | undefined;
      for (let j = 0; j < last; j++) {
        const left = this.candidates(complex[j]!.compound);
        if (left.length === 0) continue complexes;
        if (!narrowest || left.length < narrowest.length) narrowest = left;
      }
      const list = this.candidates(complex[last]!.compound);
      const first = lowerBound(list, from);
      const stop = upperBound(list, to);
      // Many candidates for the rightmost part (`h1 span`, `[data-x] a`): every match lies inside an
      // element matching one of the parts to its left, so only those subtrees are searched.
      const anchors = narrowest && stop - first > ANCHOR_THRESHOLD && narrowest.length * 4 <= stop - first ? this.subtrees(narrowest) : undefined;
      if (!anchors) {
        for (let i = first; i < stop; i++) {
          const p = list[i]!;
          if (matchComplex(this.elements[p]!, complex, last, bound)) found.push(p);
        }
        continue;
      }
      for (let r = 0; r < anchors.length; r += 2) {
        const lo = Math.max(from, anchors[r]!);
        const hi = Math.min(to, anchors[r + 1]!);
        for (let i = lowerBound(list, lo); i < list.length && list[i]! <= hi; i++) {
          const p = list[i]!;
          if (matchComplex(this.elements[p]!, complex, last, bound)) found.push(p);
        }
      }
    }
    // The matches of several complexes interleave and may repeat.
    if (compiled.length > 1) sortUnique(found);
    return found.map((p) => this.elements[p]!);
  }

  /** The subtrees below the listed elements as [from, to] pairs, disjoint, in document order. */
  private subtrees(anchors: readonly number[]): number[] {
    const ranges: number[] = [];
    let covered = -1;
    for (const a of anchors) {
      if (a <= covered) continue;
      const end = this.end(this.elements[a]!, a);
      if (end > a) ranges.push(a + 1, end);
      covered = end;
    }
    return ranges;
  }

  /** The smallest indexed list that holds every element the compound can match. */
  private candidates(c: Compound): readonly number[] {
    let best = this.candidateLists.get(c);
    if (best) return best;
    if (c.id !== undefined) best = this.id(c.id);
    // `[id="x"]` is `#x` (id values compare case-sensitively).
    else for (const a of c.attrs) if (a.name === 'id' && a.op === 'equals') best = this.id(a.value);
    if (!best) {
      for (const name of c.classes) best = shorter(best, this.cls(name));
      if (c.tag !== undefined) best = shorter(best, this.tag(c.tag));
      for (const a of c.attrs) {
        // `[class*="p13n-sc-price"]` and the like: the class attributes holding the value.
        if (a.name === 'class' && a.op !== 'exists' && a.value !== '' && !a.value.includes(' ')) best = shorter(best, this.classSubstring(a.value));
      }
      // Attribute lists hold own attributes only; css-select reads inherited ones too (`[toString]`).
      if (!best) for (const a of c.attrs) if (!(a.name in Object.prototype)) best = shorter(best, this.attr(a.name));
    }
    best ??= this.allElements();
    this.candidateLists.set(c, best);
    return best;
  }

  /** Elements whose class attribute contains `value` (no space in it: a hit cannot straddle two elements). */
  private classSubstring(value: string): readonly number[] {
    let list = this.classSubstrings.get(value);
    if (!list) {
      list = this.classText().owners(value, false);
      this.classSubstrings.set(value, list);
    }
    return list;
  }
}
