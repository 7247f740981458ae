/*
 * The selector subset the page index answers: the one the parsers use. Compounds of tag, `#id`,
 * `.class`, `[attr]`, `[attr=v]`, `^=`, `$=`, `*=`, `~=`, `|=`, `:not(compound)`, joined by
 * descendant or child combinators, in comma lists, with css-select's semantics in HTML mode:
 * lower-cased tag and attribute names, and the HTML attributes whose values compare
 * case-insensitively. Anything else (other pseudo-classes, sibling combinators, escapes) compiles
 * to undefined and the caller asks cheerio. Matching is in selector-match.ts.
 */

export type AttrOp = 'exists' | 'equals' | 'start' | 'end' | 'any' | 'element' | 'hyphen';

export interface AttrTest {
  readonly name: string;
  readonly op: AttrOp;
  /** Lower-cased when `ignoreCase`. */
  readonly value: string;
  readonly ignoreCase: boolean;
  /** The value's length as written (css-select measures `^=`, `$=` and `|=` before lower-casing). */
  readonly rawLength: number;
  /** `~=` (and case-insensitive `*=`): css-select's own regular expression. */
  readonly regex?: RegExp;
}

export interface Compound {
  readonly tag?: string;
  readonly id?: string;
  readonly classes: readonly string[];
  readonly attrs: readonly AttrTest[];
  readonly not: readonly Compound[];
}

/** Compounds left to right; `combinator` joins a compound to the one before it. */
export type Complex = readonly { readonly compound: Compound; readonly combinator: ' ' | '>' }[];

/** The HTML attributes css-select compares case-insensitively (outside XML mode). */
const CASE_INSENSITIVE = new Set(
  'accept accept-charset align alink axis bgcolor charset checked clear codetype color compact declare defer dir direction disabled enctype face frame hreflang http-equiv lang language link media method multiple nohref noresize noshade nowrap readonly rel rev rules scope scrolling selected shape target text type valign valuetype vlink'.split(
    ' ',
  ),
);

const compiledSelectors = new Map<string, readonly Complex[] | null>();

/** The selector list parsed, or undefined outside the supported subset (cached either way). */
export function compile(selector: string): readonly Complex[] | undefined {
  let compiled = compiledSelectors.get(selector);
  if (compiled === undefined) {
    compiled = parseCommaList({ s: selector, i: 0 }, parseComplex, (p) => p.i === p.s.length) ?? null;
    if (compiledSelectors.size > 2000) compiledSelectors.clear();
    compiledSelectors.set(selector, compiled);
  }
  return compiled ?? undefined;
}

const IDENT = /^-?[A-Za-z_][\w-]*/;

/** The selector text and how far the parser has read it. */
interface Cursor {
  s: string;
  i: number;
}

function skipSpace(p: Cursor): boolean {
  const start = p.i;
  while (p.i < p.s.length && /[ \t\n\r\f]/.test(p.s[p.i]!)) p.i++;
  return p.i > start;
}

/**
 * Items `parseItem` reads, separated by commas (white space around them allowed), up to where
 * `atEnd` says the list stops (the end of the selector, or the `)` of `:not(…)`, left unread).
 */
function parseCommaList<T>(p: Cursor, parseItem: (p: Cursor) => T | undefined, atEnd: (p: Cursor) => boolean): T[] | undefined {
  const items: T[] = [];
  skipSpace(p);
  for (;;) {
    const item = parseItem(p);
    if (!item) return undefined;
    items.push(item);
    skipSpace(p);
    if (atEnd(p)) return items;
    if (p.s[p.i] !== ',') return undefined;
    p.i++;
    skipSpace(p);
  }
}

function parseComplex(p: Cursor): Complex | undefined {
  const parts: { compound: Compound; combinator: ' ' | '>' }[] = [];
  let combinator: ' ' | '>' = ' ';
  for (;;) {
    const compound = parseCompound(p);
    if (!compound) return undefined;
    parts.push({ compound, combinator });
    const spaced = skipSpace(p);
    const c = p.s[p.i];
    if (c === undefined || c === ',' || c === ')') return parts;
    if (c === '>') {
      p.i++;
      skipSpace(p);
      combinator = '>';
    } else if (c === '+' || c === '~') {
      return undefined;
    } else if (spaced) {
      combinator = ' ';
    } else {
      return undefined;
    }
  }
}

function parseCompound(p: Cursor): Compound | undefined {
  let tag: string | undefined;
  let id: string | undefined;
  const classes: string[] = [];
  const attrs: AttrTest[] = [];
  const not: Compound[] = [];
  let any = false;
  if (p.s[p.i] === '*') {
    p.i++;
    any = true;
  } else {
    const name = IDENT.exec(p.s.slice(p.i))?.[0];
    if (name) {
      tag = name.toLowerCase();
      p.i += name.length;
      any = true;
    }
  }
  for (;;) {
    const c = p.s[p.i];
    if (c === '#' || c === '.') {
      const name = /^[\w-]+/.exec(p.s.slice(p.i + 1))?.[0];
      if (!name) return undefined;
      p.i += 1 + name.length;
      // Two ids in one compound both have to match: keep the first as the index key, test the rest.
      if (c === '.') classes.push(name);
      else if (id === undefined) id = name;
      else attrs.push(attrTest('id', 'equals', name));
    } else if (c === '[') {
      const m = /^\[\s*([\w-]+)\s*(?:([~|^$*]?=)\s*(?:"([^"\\]*)"|'([^'\\]*)'|([\w-]+))\s*)?\]/.exec(p.s.slice(p.i));
      if (!m) return undefined;
      p.i += m[0].length;
      attrs.push(attrTest(m[1]!.toLowerCase(), !m[2] ? 'exists' : OPS[m[2]]!, m[3] ?? m[4] ?? m[5] ?? ''));
    } else if (c === ':') {
      if (!p.s.startsWith(':not(', p.i)) return undefined;
      p.i += 5;
      const inner = parseCommaList(p, parseCompound, (q) => q.s[q.i] === ')');
      if (!inner) return undefined;
      not.push(...inner);
      p.i++;
    } else {
      break;
    }
    any = true;
  }
  if (!any) return undefined;
  const compound: Compound = { classes, attrs, not };
  return Object.assign(compound, tag !== undefined ? { tag } : {}, id !== undefined ? { id } : {});
}

function attrTest(name: string, op: AttrOp, raw: string): AttrTest {
  const ignoreCase = CASE_INSENSITIVE.has(name);
  const value = ignoreCase ? raw.toLowerCase() : raw;
  const escaped = raw.replace(/[-[\]{}()*+?.,\\^$|#\s]/g, '\\$&');
  if (op === 'element') {
    // css-select: a value holding white space never matches.
    const regex = /\s/.test(raw) ? /(?!)/ : new RegExp(`(?:^|\\s)${escaped}(?:$|\\s)`, ignoreCase ? 'i' : '');
    return { name, op, value: raw, ignoreCase, rawLength: raw.length, regex };
  }
  if (op === 'any' && ignoreCase) return { name, op, value: raw, ignoreCase, rawLength: raw.length, regex: new RegExp(escaped, 'i') };
  return { name, op, value, ignoreCase, rawLength: raw.length };
}

const OPS: Record<string, AttrOp> = { '=': 'equals', '^=': 'start', '$=': 'end', '*=': 'any', '~=': 'element', '|=': 'hyphen' };
