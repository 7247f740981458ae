import {
  type DescField,
  type DescMessage,
  type Message,
  getOption,
  isFieldSet,
} from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence as FieldPresence } from '@bufbuild/protobuf/wkt';
import { wire } from './gen/retail/v1/options_pb.js';
import { cutToReadMask } from './field-paths.js';
import { META_FIELD, type WireObject, type WireValue } from './wire-value.js';

export type { WireObject, WireValue } from './wire-value.js';

/**
 * Renderers that replace the default one for a message type wherever it appears in a response
 * (keyed by full type name). The gateways use one to show a bulk job's BatchItemResult as the
 * batch entry every interface answers (`{index, status, data}`), whatever response carries it.
 */
export type WireOverrides = ReadonlyMap<string, (message: Message) => WireValue>;

/**
 * Note: protobuf-es honours only `jstype = JS_STRING`, so `[jstype = JS_NUMBER]` counts are `bigint`
 * in TypeScript; the renderer below writes them as JSON numbers, as docs/contract.md requires.
 */

export { META_FIELD } from './wire-value.js';

/**
 * Renders a response message as the wire JSON of docs/contract.md, which differs from proto3 JSON:
 * unset optional fields are omitted (or `null` where the field is marked nullable), `false` and `0`
 * that were set are present, 64-bit counts are JSON numbers, enums lose their prefix and repeated
 * fields are always arrays, timestamps are RFC 3339 strings in UTC.
 */
export function renderMessage(desc: DescMessage, message: Message, overrides?: WireOverrides): WireObject {
  const out: WireObject = {};
  const record = message as unknown as Record<string, unknown>;
  for (const field of desc.fields) {
    const value = renderField(field, message, field.oneof ? memberValue(record, field) : record[field.localName], overrides);
    if (value !== undefined) out[field.jsonName] = value;
  }
  return out;
}

/** A oneof member's value (protobuf-es keeps `{case, value}` under the oneof's name): undefined unless it is the one set. */
function memberValue(record: Record<string, unknown>, field: DescField): unknown {
  const chosen = record[field.oneof!.localName] as { case?: string; value?: unknown } | undefined;
  return chosen?.case === field.localName ? chosen.value : undefined;
}

/**
 * The `data` object of a response: every field but `meta`, keyed by its wire name. A response whose
 * `meta.read_mask` says its record was cut to some fields (field selection, field-paths.ts) renders
 * only those: the renderer would otherwise write a cut list as `[]` and a cut nullable field as `null`.
 */
export function renderData(desc: DescMessage, response: Message, overrides?: WireOverrides): WireObject {
  const all = renderMessage(desc, response, overrides);
  const meta = desc.fields.find((f) => f.name === META_FIELD);
  if (meta) delete all[meta.jsonName];
  return cutToReadMask(desc, response, all);
}

/** A nested message: its override when one is given for its type, else the default rendering. */
function renderNested(desc: DescMessage, value: Message, overrides: WireOverrides | undefined): WireValue {
  const override = overrides?.get(desc.typeName);
  return override ? override(value) : renderMessage(desc, value, overrides);
}

function renderField(field: DescField, owner: Message, value: unknown, overrides: WireOverrides | undefined): WireValue | undefined {
  switch (field.fieldKind) {
    case 'list':
      return (value as unknown[]).map((item) => renderListItem(field, item, overrides));
    case 'map': {
      const out: WireObject = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] = field.mapKind === 'message' ? renderNested(field.message, v as Message, overrides) : renderScalar(v);
      }
      return out;
    }
    case 'message':
      if (value === undefined) return isNullable(field) ? null : undefined;
      if (field.message.typeName === TIMESTAMP) return renderTimestamp(value as Message);
      return renderNested(field.message, value as Message, overrides);
    case 'enum':
    case 'scalar': {
      const present = field.presence === FieldPresence.IMPLICIT || isFieldSet(owner, field);
      if (!present) return isNullable(field) ? null : undefined;
      if (field.fieldKind === 'enum') return enumName(field.enum.values, value as number);
      return renderScalar(value);
    }
  }
}

function renderListItem(field: DescField & { fieldKind: 'list' }, item: unknown, overrides: WireOverrides | undefined): WireValue {
  switch (field.listKind) {
    case 'message':
      return renderNested(field.message, item as Message, overrides);
    case 'enum':
      return enumName(field.enum.values, item as number);
    default:
      return renderScalar(item);
  }
}

const TIMESTAMP = 'google.protobuf.Timestamp';

/** A google.protobuf.Timestamp is an RFC 3339 string in UTC on the wire, as proto3 JSON writes it. */
function renderTimestamp(value: Message): string {
  const { seconds, nanos } = value as unknown as { seconds: bigint; nanos: number };
  return new Date(Number(seconds) * 1000 + Math.floor(nanos / 1e6)).toISOString();
}

function enumName(values: readonly { number: number; localName: string; name: string }[], n: number): string {
  // protoc-gen-es already strips the enum's prefix in localName (DOMAIN_US → US).
  const value = values.find((v) => v.number === n);
  return value ? value.localName : String(n);
}

function renderScalar(value: unknown): WireValue {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value as WireValue;
}

// Reading an option decodes the field's options each time; rendering asks for every field of every
// message, so the answer is kept per descriptor (measured at ~30% of a gateway's own CPU otherwise).
const nullableFields = new WeakMap<DescField, boolean>();

function isNullable(field: DescField): boolean {
  let nullable = nullableFields.get(field);
  if (nullable === undefined) {
    nullable = getOption(field, wire).nullable;
    nullableFields.set(field, nullable);
  }
  return nullable;
}

const bulkyFields = new WeakMap<DescField, boolean>();

/** True for a field marked `(retail.v1.wire).bulky`: left out of compact records. */
export function isBulky(field: DescField): boolean {
  let bulky = bulkyFields.get(field);
  if (bulky === undefined) {
    bulky = getOption(field, wire).bulky;
    bulkyFields.set(field, bulky);
  }
  return bulky;
}

/**
 * A rendered record without its bulky fields, at any depth (`desc` is the message `data` was
 * rendered from): the compact records of the MCP batch tool. Everything else is as renderData wrote it.
 */
export function compactData(desc: DescMessage, data: WireObject): WireObject {
  const out: WireObject = {};
  for (const field of desc.fields) {
    const value = data[field.jsonName];
    if (value === undefined || isBulky(field)) continue;
    const nested = field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message') ? field.message : undefined;
    if (!nested || nested.typeName === TIMESTAMP || value === null) out[field.jsonName] = value;
    else out[field.jsonName] = Array.isArray(value) ? value.map((item) => compactData(nested, item as WireObject)) : compactData(nested, value as WireObject);
  }
  return out;
}
