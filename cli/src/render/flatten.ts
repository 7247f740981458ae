/**
 * A JSON record as rows a terminal can show: every scalar under its dotted path (`price.display`),
 * arrays of scalars joined, arrays of records set aside to be shown as tables of their own.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Flattened {
  /** [dotted path, text] of every scalar, in document order. */
  readonly leaves: [string, string][];
  /** [dotted path, items] of every array of records (not flattened into leaves). */
  readonly lists: [string, Record<string, Json>[]][];
}

const isRecord = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A Price (docs/contract.md, Wire JSON: value, currency and the marketplace's own display string) reads best as its display. */
const isPrice = (value: Record<string, Json>): boolean => typeof value.display === 'string' && typeof value.currency === 'string';

/** A scalar as one line of text. */
export function scalarText(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ');
  return String(value);
}

/**
 * Flattens a record. `nestedLists: 'summarize'` writes an array of records as "N items" instead of
 * setting it aside (for the rows of a list table, which cannot nest tables).
 */
export function flatten(value: Json, nestedLists: 'separate' | 'summarize' = 'separate'): Flattened {
  const leaves: [string, string][] = [];
  const lists: [string, Record<string, Json>[]][] = [];
  const visit = (node: Json, path: string): void => {
    if (Array.isArray(node)) {
      if (node.length > 0 && node.every(isRecord)) {
        if (nestedLists === 'separate') lists.push([path, node]);
        else leaves.push([path, `${node.length} items`]);
      } else {
        leaves.push([path, node.map((item) => (isRecord(item) || Array.isArray(item) ? JSON.stringify(item) : scalarText(item))).join(', ')]);
      }
    } else if (isRecord(node) && isPrice(node)) {
      leaves.push([path, node.display as string]);
    } else if (isRecord(node)) {
      for (const [key, child] of Object.entries(node)) visit(child, path ? `${path}.${key}` : key);
    } else {
      leaves.push([path, scalarText(node)]);
    }
  };
  visit(value, '');
  return { leaves, lists };
}
