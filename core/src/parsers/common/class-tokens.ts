/*
 * White-space separated tokens (class names) as css-select's `~=` and `.class` read them: split on
 * what JavaScript's `\s` matches, so a name holding white space never matches.
 */

const WHITE_SPACE = /\s/;

/** `name` can stand as a token: not empty, no white space in it. */
export function canBeToken(name: string): boolean {
  return name !== '' && !WHITE_SPACE.test(name);
}

/** The character code is white space as JavaScript's `\s` reads it. */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    (c > 127 &&
      (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff))
  );
}

/** `text` from `start` up to `end` stands alone: white space or the text's ends on both sides. */
export function standsAlone(text: string, start: number, end: number): boolean {
  return (start === 0 || isSpace(text.charCodeAt(start - 1))) && (end === text.length || isSpace(text.charCodeAt(end)));
}

/** `name` is a white-space separated token of `value` (css-select's `~=`, JavaScript's `\s`). */
export function hasToken(value: string, name: string): boolean {
  if (!canBeToken(name)) return false;
  for (let i = value.indexOf(name); i >= 0; i = value.indexOf(name, i + 1)) if (standsAlone(value, i, i + name.length)) return true;
  return false;
}
