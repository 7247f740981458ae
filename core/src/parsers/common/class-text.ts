import { standsAlone } from './class-tokens.js';
import { upperBound } from './sorted-lists.js';

/**
 * Every class attribute of the page joined by spaces (white space bounds a class token either
 * way), searched with indexOf; a hit maps to its element by binary search. indexOf skips ahead to
 * the needle's first character, and nearly every class here starts with `a-`, `s-` or `puis-`, so
 * the search starts at the name's rarest character on the page and checks the part before it.
 */
export class ClassText {
  private readonly text: string;
  /** Where each class attribute starts in `text`. */
  private readonly starts: number[];
  /** Occurrences (sampled) per character code below 128 (others count as rare). */
  private readonly frequency = new Uint32Array(128);

  /** `parts` are the non-empty class attributes in document order, `elements` their elements' numbers. */
  constructor(
    parts: readonly string[],
    private readonly elements: readonly number[],
  ) {
    this.starts = new Array<number>(parts.length);
    let offset = 0;
    for (let i = 0; i < parts.length; i++) {
      this.starts[i] = offset;
      offset += parts[i]!.length + 1;
    }
    this.text = parts.join(' ');
    // Every 7th character is a good enough estimate of which characters are rare.
    const { text, frequency } = this;
    for (let i = 0; i < text.length; i += 7) {
      const c = text.charCodeAt(i);
      if (c < 128) frequency[c]!++;
    }
  }

  /** Elements (numbers) whose class attribute holds `value`: as a whole token, or anywhere. */
  owners(value: string, whole: boolean): number[] {
    const { text, starts, frequency } = this;
    let k = 0;
    for (let i = 1; i < value.length; i++) {
      const c = value.charCodeAt(i);
      const best = value.charCodeAt(k);
      if ((c < 128 ? frequency[c]! : 0) < (best < 128 ? frequency[best]! : 0)) k = i;
    }
    const prefix = value.slice(0, k);
    const needle = k === 0 ? value : value.slice(k);
    const list: number[] = [];
    let last = -1;
    for (let hit = text.indexOf(needle); hit >= 0; hit = text.indexOf(needle, hit + 1)) {
      const at = hit - k;
      if (at < 0 || (k > 0 && !text.startsWith(prefix, at))) continue;
      if (whole && !standsAlone(text, at, at + value.length)) continue;
      const owner = this.elements[upperBound(starts, at) - 1]!;
      if (owner !== last) list.push((last = owner));
    }
    return list;
  }
}
