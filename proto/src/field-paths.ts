/**
 * Field selection on a record: dotted paths relative to the record (`title`, `price.value`,
 * `productResults.results.asin`). A path through a list applies to every item; a path that ends on
 * a message keeps all of it. Checked against the record's descriptor, so an unknown path is refused
 * by name before anything runs (docs/contract.md, the rule table's `unknownField`). Here, in the
 * contract package, so every interface reads paths the same way: REST and MCP clients write them in
 * wire names (`fields`), gRPC callers in proto field names (the request's `read_mask`, AIP-157/161).
 *
 * Where the cut happens, declared once: in the core (`projectResponse`, run for every unary call,
 * batch item and coalesced call), because gRPC callers need the message itself cut, and a gateway
 * then receives only the selected fields over the wire instead of the whole record (a search page
 * is most of its bytes in results the client did not ask for). The response says so in
 * `meta.read_mask`, which `renderData` reads to render only those paths (`cutToReadMask`): the wire
 * renderer writes an absent list as `[]` and an absent nullable field as `null`, which would read as
 * data. Stored results (a bulk job's) carry their meta, so they render cut as well.
 */
import { type DescField, type DescMessage, type Message, create, isFieldSet } from '@bufbuild/protobuf';
import { FieldMaskSchema } from '@bufbuild/protobuf/wkt';
import { META_FIELD, type WireObject, type WireValue } from './wire-value.js';

/** The selection as a tree: each key a wire name, an empty node "all of it". */
export interface FieldTree {
  readonly [name: string]: FieldTree;
}

/** How the paths name fields: wire (JSON) names as REST and MCP write them, or proto field names as a FieldMask carries them. */
export type PathNaming = 'wire' | 'proto';

const TIMESTAMP = 'google.protobuf.Timestamp';

/** The message a field leads into, if a path may go on through it. */
function nestedMessage(field: DescField): DescMessage | undefined {
  const message = field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message') ? field.message : undefined;
  return message && message.typeName !== TIMESTAMP ? message : undefined;
}

/** The record of a response: the message its data root (the field other than `meta`) holds, or holds a list of. */
export function recordOfResponse(response: DescMessage): DescMessage | undefined {
  const root = response.fields.find((f) => f.name !== META_FIELD);
  return root ? nestedMessage(root) : undefined;
}

export type FieldSelection =
  /** `tree` in wire names; `protoPaths` the same paths in proto field names, as a FieldMask carries them. */
  | { readonly ok: true; readonly tree: FieldTree; readonly protoPaths: readonly string[] }
  | { readonly ok: false; readonly path: string };

interface Node {
  whole: boolean;
  readonly children: Map<string, Node>;
}

/** Reads dotted paths against `record` (the message of the data root); the first unknown path is refused. */
export function fieldSelection(record: DescMessage, paths: readonly string[], naming: PathNaming = 'wire'): FieldSelection {
  const root: Node = { whole: false, children: new Map() };
  const protoPaths: string[] = [];
  for (const path of paths) {
    let desc: DescMessage | undefined = record;
    let node = root;
    const protoNames: string[] = [];
    for (const name of path.split('.')) {
      const field: DescField | undefined = desc?.fields.find((f) => (naming === 'wire' ? f.jsonName : f.name) === name);
      if (!field) return { ok: false, path };
      protoNames.push(field.name);
      let child = node.children.get(field.jsonName);
      if (!child) node.children.set(field.jsonName, (child = { whole: false, children: new Map() }));
      node = child;
      desc = nestedMessage(field);
    }
    node.whole = true;
    protoPaths.push(protoNames.join('.'));
  }
  return { ok: true, tree: treeOf(root), protoPaths };
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

type Fields = Record<string, unknown>;

/** A copy of a record message with only the fields the tree names (nested messages copied the same way, unselected ones left unset). */
export function projectMessage(desc: DescMessage, message: Message, tree: FieldTree): Message {
  if (Object.keys(tree).length === 0) return message;
  // A new message rather than clearing this one: the handler's objects may be shared (parsed pages, an identical batch item).
  const out = create(desc) as unknown as Fields;
  const source = message as unknown as Fields;
  for (const field of desc.fields) {
    const sub = tree[field.jsonName];
    if (sub === undefined || !isFieldSet(message, field)) continue;
    const nested = nestedMessage(field);
    const cut = (value: unknown) => (nested ? projectMessage(nested, value as Message, sub) : value);
    if (field.oneof) {
      const chosen = source[field.oneof.localName] as { case: string; value: unknown };
      out[field.oneof.localName] = { case: chosen.case, value: cut(chosen.value) };
    } else {
      const value = source[field.localName];
      out[field.localName] = Array.isArray(value) ? value.map(cut) : cut(value);
    }
  }
  return out as unknown as Message;
}

/**
 * The response with its record cut to the selection (each item of a list root), and `meta.read_mask`
 * set to the selected paths so every renderer knows the record is partial.
 */
export function projectResponse<T extends Message>(desc: DescMessage, response: T, selection: Extract<FieldSelection, { ok: true }>): T {
  const root = desc.fields.find((f) => f.name !== META_FIELD);
  const record = root && nestedMessage(root);
  const fields = response as unknown as Fields;
  if (root && record) {
    const value = fields[root.localName];
    if (Array.isArray(value)) fields[root.localName] = value.map((item: Message) => projectMessage(record, item, selection.tree));
    else if (value !== undefined) fields[root.localName] = projectMessage(record, value as Message, selection.tree);
  }
  const meta = desc.fields.find((f) => f.name === META_FIELD);
  if (meta?.message) {
    fields[meta.localName] ??= create(meta.message);
    (fields[meta.localName] as Fields).readMask = create(FieldMaskSchema, { paths: [...selection.protoPaths] });
  }
  return response;
}

/** The read_mask a response carries in its meta, if its record was cut. */
function readMaskOf(desc: DescMessage, response: Message): readonly string[] | undefined {
  const meta = desc.fields.find((f) => f.name === META_FIELD);
  const paths = meta && ((response as unknown as Fields)[meta.localName] as { readMask?: { paths: string[] } } | undefined)?.readMask?.paths;
  return paths && paths.length > 0 ? paths : undefined;
}

/** Rendered `data` of a response cut to the paths its `meta.read_mask` names (all of it when it names none). */
export function cutToReadMask(desc: DescMessage, response: Message, data: WireObject): WireObject {
  const paths = readMaskOf(desc, response);
  const root = paths && desc.fields.find((f) => f.name !== META_FIELD);
  const record = root && nestedMessage(root);
  if (!paths || !root || !record || data[root.jsonName] === undefined) return data;
  const selection = fieldSelection(record, paths, 'proto');
  return selection.ok ? { ...data, [root.jsonName]: selectValue(data[root.jsonName]!, selection.tree) } : data;
}
