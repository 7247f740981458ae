/**
 * Field selection on a wire record: dotted paths of wire (JSON) names, relative to the record
 * (`title`, `price.value`, `productResults.results.asin`). A path through a list applies to every
 * item; a path that ends on a message keeps all of it. Checked against the record's descriptor, so
 * an unknown path is refused by name before anything runs (docs/contract.md, the rule table's
 * `unknownField`). Here, in the contract package, so every interface reads paths the same way.
 */
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import type { WireObject, WireValue } from './wire.js';

/** The selection as a tree: each key a wire name, an empty node "all of it". */
export interface FieldTree {
  readonly [name: string]: FieldTree;
}

const TIMESTAMP = 'google.protobuf.Timestamp';

/** The message a field leads into, if a path may go on through it. */
function nestedMessage(field: DescField): DescMessage | undefined {
  const message = field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message') ? field.message : undefined;
  return message && message.typeName !== TIMESTAMP ? message : undefined;
}

export type FieldSelection = { readonly ok: true; readonly tree: FieldTree } | { readonly ok: false; readonly path: string };

interface Node {
  whole: boolean;
  readonly children: Map<string, Node>;
}

/** Reads dotted paths against `record` (the message of the data root); the first unknown path is refused. */
export function fieldSelection(record: DescMessage, paths: readonly string[]): FieldSelection {
  const root: Node = { whole: false, children: new Map() };
  for (const path of paths) {
    let desc: DescMessage | undefined = record;
    let node = root;
    for (const name of path.split('.')) {
      const field: DescField | undefined = desc?.fields.find((f) => f.jsonName === name);
      if (!field) return { ok: false, path };
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = { whole: false, children: new Map() }));
      node = child;
      desc = nestedMessage(field);
    }
    node.whole = true;
  }
  return { ok: true, tree: treeOf(root) };
}

/** `price` beside `price.value` means all of `price`: a node asked for whole stays whole. */
function treeOf(node: Node): FieldTree {
  if (node.whole) return {};
  return Object.fromEntries([...node.children].map(([name, child]) => [name, treeOf(child)]));
}

/** The parts of `data` (a rendered record) the tree names, at any depth, through lists. */
export function selectFields(data: WireObject, tree: FieldTree): WireObject {
  const out: WireObject = {};
  for (const [name, sub] of Object.entries(tree)) {
    if (!(name in data)) continue;
    out[name] = selectValue(data[name]!, sub);
  }
  return out;
}

/** The parts of a record, or of each record of a list, the tree names. */
export function selectValue(value: WireValue, tree: FieldTree): WireValue {
  if (Object.keys(tree).length === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => selectValue(item, tree));
  return selectFields(value, tree);
}
