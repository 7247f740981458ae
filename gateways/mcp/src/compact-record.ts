/**
 * The compact record an MCP tool answers by default, sized for a model's context window rather
 * than for a program: the wire record (renderData) with
 * - no empty values (`null`, `""`, `[]`, `{}`): absent means "not on the page", as the text says;
 * - no bulky fields (`(retail.v1.wire).bulky`: image lists, feature bullets, specification tables,
 *   review media), as the batch tool always did; `fields` names them to get them back;
 * - long lists cut to `limit` items: the record's own lists from the cursor's offset on (the next
 *   call continues them), lists inside a list's items from their start;
 * - long texts trimmed to MAX_TEXT characters with a marker that says how much was left out. Links
 *   are never trimmed: half a URL is no URL.
 * Walks the response descriptor beside the JSON, as compactData (@retail/contract) does; a part
 * rendered by an override (a job's result entry) has no descriptor and is walked by its JSON alone.
 */
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { type WireObject, type WireValue, isBulky } from '@retail/contract';

/** Items kept of a list inside a list's items (a search refinement's options): the items are the point, not their parts. */
export const NESTED_LIST_LIMIT = 3;

/** Longest text kept whole, in characters. */
export const MAX_TEXT = 300;

/** A list that was cut: where (dotted wire path), how many items were shown, how many it has. */
export interface ListCut {
  readonly path: string;
  readonly from: number;
  readonly shown: number;
  readonly total: number;
  /** A list inside a list's items: cut from its start, not continued by the cursor. */
  readonly nested: boolean;
}

export interface CompactOptions {
  /** Most items of any list. */
  readonly limit: number;
  /** Where the record's own lists start (the cursor). */
  readonly offset: number;
  /** Leave the bulky fields in (a `fields` selection named them). */
  readonly keepBulky?: boolean;
}

export interface CompactRecord {
  readonly record: WireObject;
  /** Bulky fields that had a value and were left out, by wire name. */
  readonly bulky: readonly string[];
  /** Whether empty values were left out. */
  readonly emptied: boolean;
  /** The lists that have more items than were shown. */
  readonly cuts: readonly ListCut[];
  /** How many texts were trimmed. */
  readonly trimmed: number;
}

const TIMESTAMP = 'google.protobuf.Timestamp';

function isEmpty(value: WireValue): boolean {
  if (value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

const isLink = (name: string): boolean => /urls?$/i.test(name);

export function trimText(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  return `${text.slice(0, MAX_TEXT)}… [${text.length - MAX_TEXT} more characters]`;
}

/** The compact form of a response's `data` (`desc` is the response message); the data root is kept even when empty. */
export function compactRecord(desc: DescMessage, data: WireObject, options: CompactOptions): CompactRecord {
  const cuts: ListCut[] = [];
  const bulky = new Set<string>();
  let trimmed = 0;
  let emptied = false;
  const empty = (v: WireValue): boolean => {
    const is = isEmpty(v);
    if (is) emptied = true;
    return is;
  };

  const text = (name: string, value: string): string => {
    if (isLink(name) || value.length <= MAX_TEXT) return value;
    trimmed++;
    return trimText(value);
  };

  /** A list at `path`: the record's own lists (depth 0) from the offset, nested ones from their start. */
  const list = (items: WireValue[], path: string, insideList: boolean, item: (v: WireValue, path: string) => WireValue | undefined): WireValue[] => {
    const from = insideList ? 0 : Math.min(options.offset, items.length);
    const shown = items.slice(from, from + (insideList ? Math.min(NESTED_LIST_LIMIT, options.limit) : options.limit));
    // A list inside every item of another is reported once, by its path.
    if ((from > 0 || shown.length < items.length) && !cuts.some((c) => c.path === path)) cuts.push({ path, from, shown: shown.length, total: items.length, nested: insideList });
    return shown.flatMap((v) => {
      const out = item(v, path);
      return out === undefined ? [] : [out];
    });
  };

  const value = (field: DescField | undefined, name: string, v: WireValue, path: string, insideList: boolean): WireValue | undefined => {
    if (empty(v)) return undefined;
    const nested = field && (field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message')) ? field.message : undefined;
    if (Array.isArray(v)) {
      return list(v, path, insideList, (item, at) => (nested && nested.typeName !== TIMESTAMP ? message(nested, item, at, true) : scalar(name, item, at, true)));
    }
    if (nested && nested.typeName !== TIMESTAMP) return message(nested, v, path, insideList);
    return scalar(name, v, path, insideList);
  };

  /** A value with no descriptor (an override's JSON, a list of scalars, a map). */
  const scalar = (name: string, v: WireValue, path: string, insideList: boolean): WireValue | undefined => {
    if (empty(v)) return undefined;
    if (typeof v === 'string') return text(name, v);
    if (Array.isArray(v)) return list(v, path, insideList, (item, at) => scalar(name, item, at, true));
    if (v !== null && typeof v === 'object') return object(undefined, v, path, insideList);
    return v;
  };

  const message = (nested: DescMessage, v: WireValue, path: string, insideList: boolean): WireValue | undefined =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? object(nested, v, path, insideList) : scalar('', v, path, insideList);

  const object = (desc: DescMessage | undefined, v: WireObject, path: string, insideList: boolean): WireValue | undefined => {
    const fields = desc ? new Map(desc.fields.map((f) => [f.jsonName, f])) : undefined;
    const out: WireObject = {};
    for (const [name, child] of Object.entries(v)) {
      const field = fields?.get(name);
      if (field && isBulky(field) && !options.keepBulky) {
        if (!isEmpty(child)) bulky.add(name);
        continue;
      }
      const at = path ? `${path}.${name}` : name;
      const kept = field ? value(field, name, child, at, insideList) : scalar(name, child, at, insideList);
      if (kept !== undefined) out[name] = kept;
    }
    return isEmpty(out) ? undefined : out;
  };

  const record: WireObject = {};
  for (const field of desc.fields) {
    const v = data[field.jsonName];
    if (v === undefined) continue;
    record[field.jsonName] = value(field, field.jsonName, v, '', false) ?? (Array.isArray(v) ? [] : typeof v === 'object' && v !== null ? {} : v);
  }
  return { record, bulky: [...bulky], emptied, cuts, trimmed };
}
