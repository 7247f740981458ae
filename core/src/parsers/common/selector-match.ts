import { hasToken } from './class-tokens.js';
import type { Element } from './dom.js';
import { hasAttribute, isTag } from './node-reads.js';
import { compile, type AttrTest, type Complex, type Compound } from './selector.js';

/*
 * Whether an element matches a compiled selector (selector.ts), as css-select decides it in HTML
 * mode, with cheerio's scoping of `find`: the selector's leftmost part may match the scope element
 * itself, never an element above it.
 */

/** One attribute test, as css-select's attribute rules decide it (case-insensitive branch included). */
function matchAttr(el: Element, t: AttrTest): boolean {
  if (t.op === 'exists') return hasAttribute(el, t.name);
  const attr = el.attribs[t.name];
  if (attr == null) return false;
  const v = t.value;
  const len = v.length;
  if (t.op === 'element') return attr.length >= len && t.regex!.test(attr);
  if (t.ignoreCase) {
    const raw = t.rawLength;
    switch (t.op) {
      case 'equals':
        return attr.length === len && attr.toLowerCase() === v;
      case 'start':
        return raw > 0 && attr.length >= raw && attr.substr(0, raw).toLowerCase() === v;
      case 'end':
        return raw > 0 && attr.substr(-raw).toLowerCase() === v;
      case 'any':
        return len > 0 && attr.length >= len && t.regex!.test(attr);
      default:
        return (attr.length === raw || attr.charAt(raw) === '-') && attr.substr(0, raw).toLowerCase() === v;
    }
  }
  switch (t.op) {
    case 'equals':
      return attr === v;
    case 'start':
      return len > 0 && attr.startsWith(v);
    case 'end':
      return len > 0 && attr.endsWith(v);
    case 'any':
      return len > 0 && attr.includes(v);
    default:
      return (attr.length === len || attr.charAt(len) === '-') && attr.substr(0, len) === v;
  }
}

function matchCompound(el: Element, c: Compound): boolean {
  if (c.tag !== undefined && el.name !== c.tag) return false;
  if (c.id !== undefined && el.attribs.id !== c.id) return false;
  if (c.classes.length > 0) {
    const cls = el.attribs.class;
    if (cls === undefined) return false;
    for (const name of c.classes) if (!hasToken(cls, name)) return false;
  }
  for (const a of c.attrs) if (!matchAttr(el, a)) return false;
  for (const n of c.not) if (matchCompound(el, n)) return false;
  return true;
}

/**
 * `el` matches compounds 0..k of `complex` (k the one `el` must match). Ancestors climb while they
 * are elements and not above `bound` (cheerio's scope; the scope element itself may match).
 */
export function matchComplex(el: Element, complex: Complex, k: number, bound: Element | undefined): boolean {
  const part = complex[k]!;
  if (!matchCompound(el, part.compound)) return false;
  if (k === 0) return true;
  if (el === bound) return false;
  let node = el.parent;
  while (node && isTag(node)) {
    if (matchComplex(node, complex, k - 1, bound)) return true;
    if (part.combinator === '>' || node === bound) return false;
    node = node.parent;
  }
  return false;
}

/**
 * A test for the elements a list of compounds (`script, .a-hidden, [data-hook="x"]`) picks, as
 * css-select decides it: what `.find(selector).remove()` on a copy removes, or `.closest(selector)`
 * climbs to. Throws for anything but a list of compounds (a programming error, found at load).
 */
export function elementTest(selector: string): (el: Element) => boolean {
  const compiled = compile(selector);
  if (!compiled || compiled.some((complex) => complex.length !== 1)) throw new Error(`not a list of compounds: ${selector}`);
  return (el) => compiled.some((complex) => matchComplex(el, complex, 0, el));
}
