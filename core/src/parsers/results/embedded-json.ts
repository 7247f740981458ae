import { tryJson } from './dom.js';

/*
 * Product pages embed their data in inline scripts as JavaScript object literals written in JSON
 * syntax (`"dimensionToAsinMap" : {...}`). Rather than evaluating scripts, the value of one key is
 * cut out by bracket matching (string-aware) and parsed as JSON.
 */

/** The JSON value (object, array, string, number) that follows `"key" :` at or after `from`. */
export function jsonValueAfterKey<T = unknown>(source: string, key: string, from = 0): T | undefined {
  const pattern = new RegExp(`["']${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']\\s*:\\s*`, 'g');
  pattern.lastIndex = from;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(source)) !== null) {
    const start = match.index + match[0].length;
    const raw = cutValue(source, start);
    if (raw !== undefined) {
      const value = tryJson<T>(raw);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** The text of the JSON value starting at `start`, by bracket matching. */
function cutValue(source: string, start: number): string | undefined {
  const open = source[start];
  if (open === '"') {
    const end = skipString(source, start);
    return end < 0 ? undefined : source.slice(start, end + 1);
  }
  if (open !== '{' && open !== '[') {
    const simple = /^(-?\d+(?:\.\d+)?|true|false|null)/.exec(source.slice(start, start + 40));
    return simple?.[1];
  }
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '"') {
      i = skipString(source, i);
      if (i < 0) return undefined;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return source.slice(start, i + 1);
    }
  }
  return undefined;
}

/** Index of the closing quote of the string opening at `start`, -1 when unterminated. */
function skipString(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
  }
  return -1;
}
