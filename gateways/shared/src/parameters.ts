/**
 * Shape checks of client parameters against the registry, shared by the three interfaces: the
 * types a query string or JSON value can get wrong, then the declared rules (bounds, pattern,
 * length, enum names, exactly-one-of groups, GTIN check digits) through the same checks and
 * message table the core uses (@retail/contract), so a rule broken here reads exactly as the core
 * would say it, only sooner (before units are held). The core stays the authority: it checks
 * every request again, and alone knows marketplace hosts and domain/URL agreement.
 */
import { ScalarType } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence as FieldPresence } from '@bufbuild/protobuf/wkt';
import { RULE_MESSAGES, checkGroups, checkNumber as checkDeclaredNumber, checkString as checkDeclaredString, enumNumber, fieldSelection, ruleValue } from '@retail/contract';
import type { Operation, Parameter } from './registry.js';

/** Where the parameters came from: REST query strings, GraphQL arguments, MCP tool arguments. */
export type ParameterStyle = 'rest' | 'graphql' | 'mcp';

export interface ParameterError {
  readonly message: string;
  /** `["query", name]` on REST, `[name]` on GraphQL and MCP (docs/contract.md). */
  readonly path: string[];
}

export type ParseResult =
  /** `request`: an init of the operation's request message, keyed by field local names. */
  | { readonly ok: true; readonly request: Record<string, unknown> }
  | { readonly ok: false; readonly errors: ParameterError[] };

const MAX_ECHOED_NAME = 64;

/** A parameter name as it may be echoed back: bounded and printable. */
export function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > MAX_ECHOED_NAME ? `${printable.slice(0, MAX_ECHOED_NAME)}…` : printable;
}

/**
 * Where a parameter's value came from. `text`: a query string or a path segment (numbers and
 * booleans are spelled, a list is one comma-separated value); otherwise a JSON value (GraphQL and
 * MCP arguments, a REST body). `path`: where an error points (`["query", name]`, `["body", name]`,
 * `["path", name]` on REST, `[name]` on GraphQL and MCP, as docs/contract.md says).
 */
export interface ValueSource {
  readonly text: boolean;
  readonly path: readonly string[];
}

/** The source of every parameter of a style, for operations whose parameters all come one way. */
export function styleSource(style: ParameterStyle): ValueSource {
  return style === 'rest' ? { text: true, path: ['query'] } : { text: false, path: [] };
}

const QUERY: ValueSource = { text: true, path: ['query'] };
const PATH: ValueSource = { text: true, path: ['path'] };
const BODY: ValueSource = { text: false, path: ['body'] };

/** REST: path segments named in the route, then a GET's query or another method's JSON body. */
export function restSourceOf(op: Operation): (p: Parameter | undefined) => ValueSource {
  const rest = op.httpMethod === 'GET' ? QUERY : BODY;
  return (p) => (p && op.pathParameters.includes(p) ? PATH : rest);
}

type Checked = { ok: true; value: unknown } | { ok: false; message: string; path?: string[] };

const refused = (message: string | undefined): Checked | undefined => (message === undefined ? undefined : { ok: false, message });

function checkString(p: Parameter, value: unknown): Checked {
  if (typeof value !== 'string') return { ok: false, message: RULE_MESSAGES.string(p.name) };
  const read = ruleValue(p, value);
  return refused(checkDeclaredString(p, read)) ?? { ok: true, value: read };
}

const typeMessage = (p: Parameter, integer: boolean): string => (integer ? RULE_MESSAGES.integer(p.name) : RULE_MESSAGES.number(p.name));

function checkNumber(p: Parameter, value: unknown, text: boolean, integer: boolean): Checked {
  let n: number;
  if (text) {
    const spelled = String(value);
    const shape = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    if (!shape.test(spelled)) return { ok: false, message: typeMessage(p, integer) };
    n = Number(spelled);
  } else {
    if (typeof value !== 'number') return { ok: false, message: typeMessage(p, integer) };
    n = value;
  }
  if (!Number.isFinite(n) || (integer && !Number.isSafeInteger(n))) return { ok: false, message: typeMessage(p, integer) };
  const broken = refused(checkDeclaredNumber(p, n));
  if (broken) return broken;
  // protobuf-es holds 64-bit integers as bigint whatever the jstype (see @retail/contract wire.ts).
  return { ok: true, value: integer && is64Bit(p) ? BigInt(n) : n };
}

function is64Bit(p: Parameter): boolean {
  const f = p.field;
  return f.fieldKind === 'scalar' && SIXTY_FOUR_BIT.has(f.scalar) && !f.longAsString;
}

const SIXTY_FOUR_BIT = new Set<ScalarType>([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function checkBoolean(p: Parameter, value: unknown, text: boolean): Checked {
  if (typeof value === 'boolean') return { ok: true, value };
  if (text && (value === 'true' || value === 'false')) return { ok: true, value: value === 'true' };
  return { ok: false, message: RULE_MESSAGES.boolean(p.name) };
}

function checkEnum(p: Parameter, value: unknown): Checked {
  const found = enumNumber(p, value);
  return 'number' in found ? { ok: true, value: found.number } : { ok: false, message: found.message };
}

type ParameterKindScalar = 'string' | 'integer' | 'number' | 'boolean' | 'enum';

function checkScalar(p: Parameter, value: unknown, text: boolean, itemKind: ParameterKindScalar): Checked {
  switch (itemKind) {
    case 'string':
      return checkString(p, value);
    case 'integer':
      return checkNumber(p, value, text, true);
    case 'number':
      return checkNumber(p, value, text, false);
    case 'boolean':
      return checkBoolean(p, value, text);
    case 'enum':
      return checkEnum(p, value);
  }
}

function checkList(p: Parameter, value: unknown, text: boolean): Checked {
  // Text writes lists as one comma-separated value; JSON sends arrays.
  const items = text ? (typeof value === 'string' ? value.split(',') : undefined) : Array.isArray(value) ? value : undefined;
  if (!items) return { ok: false, message: RULE_MESSAGES.list(p.name) };
  const itemKind: ParameterKindScalar = p.kind === 'enum-list' ? 'enum' : 'string';
  const out: unknown[] = [];
  for (const item of items) {
    const checked = checkScalar(p, item, text, itemKind);
    if (!checked.ok) return checked;
    out.push(checked.value);
  }
  return { ok: true, value: out };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A nested message (JSON only): its own parameters, checked as a request's are, named `conditions[0].type` in messages. */
function checkObject(p: Parameter, value: unknown, name: string, path: readonly string[]): Checked {
  if (!isPlainObject(value)) return { ok: false, message: RULE_MESSAGES.object(name) };
  const fields = (p.fields ?? []).map((f) => ({ ...f, name: `${name}.${f.name}` }));
  const byWireName = new Map((p.fields ?? []).map((f, i) => [f.name, fields[i] as Parameter]));
  for (const key of Object.keys(value)) {
    if (!byWireName.has(key)) return { ok: false, message: RULE_MESSAGES.unknownParameter(displayName(`${name}.${key}`)), path: [...path, key] };
  }
  const init: Record<string, unknown> = {};
  for (const [key, f] of byWireName) {
    const given = value[key];
    if (given === undefined || given === null) {
      if (f.required) return { ok: false, message: RULE_MESSAGES.required(f.name), path: [...path, key] };
      continue;
    }
    const checked = checkParameter(f, given, false, [...path, key]);
    if (!checked.ok) return { ...checked, path: checked.path ?? [...path, key] };
    const oneof = f.field.oneof;
    if (oneof === undefined) {
      init[f.field.localName] = checked.value;
    } else {
      // A member of a proto oneof (a BatchItem's operation): one of them, as protobuf-es writes it.
      if (init[oneof.localName] !== undefined) return { ok: false, message: RULE_MESSAGES.severalOfGroup(oneof.fields.map((m) => `${name}.${m.jsonName}`)), path: [...path, key] };
      init[oneof.localName] = { case: f.field.localName, value: checked.value };
    }
  }
  return { ok: true, value: init };
}

function checkObjectList(p: Parameter, value: unknown, path: readonly string[]): Checked {
  if (!Array.isArray(value)) return { ok: false, message: RULE_MESSAGES.list(p.name) };
  const out: unknown[] = [];
  for (const [i, item] of value.entries()) {
    const checked = checkObject(p, item, `${p.name}[${i}]`, [...path, String(i)]);
    if (!checked.ok) return checked;
    out.push(checked.value);
  }
  return { ok: true, value: out };
}

/**
 * `fields`: one string of comma-separated dotted paths in wire names (a FieldMask's JSON form, in a
 * query string and in JSON alike), checked against the record; the request gets the mask in proto
 * field names, as the core reads it (operations/read-mask.ts there).
 */
function checkFieldMask(p: Parameter, value: unknown): Checked {
  if (typeof value !== 'string') return { ok: false, message: RULE_MESSAGES.string(p.name) };
  const paths = value.split(',').map((path) => path.trim()).filter(Boolean);
  if (paths.length === 0) return { ok: false, message: RULE_MESSAGES.minLength(p.name, 1) };
  if (!p.record) throw new Error(`field-mask parameter ${p.name} has no record`);
  const selection = fieldSelection(p.record, paths);
  if (!selection.ok) return { ok: false, message: RULE_MESSAGES.unknownField(p.name, displayName(selection.path)) };
  return { ok: true, value: { paths: [...selection.protoPaths] } };
}

function checkParameter(p: Parameter, value: unknown, text: boolean, path: readonly string[]): Checked {
  if (text && Array.isArray(value)) return { ok: false, message: RULE_MESSAGES.givenOnce(p.name) };
  if (p.kind === 'field-mask') return checkFieldMask(p, value);
  if (p.kind === 'string-list' || p.kind === 'enum-list') return checkList(p, value, text);
  // Objects come only from JSON (a REST body, GraphQL input objects, MCP arguments).
  if (p.kind === 'object') return text ? { ok: false, message: RULE_MESSAGES.object(p.name) } : checkObject(p, value, p.name, path);
  if (p.kind === 'object-list') return text ? { ok: false, message: RULE_MESSAGES.list(p.name) } : checkObjectList(p, value, path);
  return checkScalar(p, value, text, p.kind);
}

/**
 * The rule one value of `p` breaks, in the table's words, or undefined when it keeps them; absent
 * (`null` included) breaks only `required`. For a value another checker refused first (a GraphQL
 * variable graphql-js could not coerce), so the client still reads the rule.
 */
export function parameterValueError(p: Parameter, value: unknown, style: ParameterStyle): string | undefined {
  if (value === undefined || value === null) return p.required ? RULE_MESSAGES.required(p.name) : undefined;
  const checked = checkParameter(p, value, styleSource(style).text, []);
  return checked.ok ? undefined : checked.message;
}

/**
 * proto3 cannot tell an absent repeated field from an empty one, so a request that may replace a
 * list carries a `replace_<list>` flag beside it (UpdateWatchRequest.replace_conditions), and the
 * proto asks the interfaces to set it: every interface can tell, so giving the list (even `[]`)
 * sets the flag, unless the client set the flag itself. Pairs per operation: [list, flag].
 */
const impliedFlags = new WeakMap<Operation, readonly (readonly [Parameter, Parameter])[]>();
function listFlags(op: Operation): readonly (readonly [Parameter, Parameter])[] {
  let pairs = impliedFlags.get(op);
  if (!pairs) {
    pairs = op.parameters.flatMap((flag) => {
      if (flag.kind !== 'boolean' || !flag.field.name.startsWith('replace_')) return [];
      const list = op.parameters.find((p) => p.field.fieldKind === 'list' && p.field.name === flag.field.name.slice('replace_'.length));
      return list ? [[list, flag] as const] : [];
    });
    impliedFlags.set(op, pairs);
  }
  return pairs;
}

const NO_PATH: readonly string[] = [];

const indexes = new WeakMap<Operation, Map<string, Parameter>>();
function parametersByName(op: Operation): Map<string, Parameter> {
  let index = indexes.get(op);
  if (!index) {
    index = new Map(op.parameters.map((p) => [p.name, p]));
    indexes.set(op, index);
  }
  return index;
}

/**
 * Checks client parameters against the operation's registry entry and builds the request init.
 * REST query values are strings (an array means the parameter was repeated); GraphQL and MCP
 * values, and a REST body's, are JSON values. GraphQL `null` means "not given". `sourceOf` says
 * where each parameter came from when they do not all come one way (a REST path and body).
 */
export function parseParameters(
  op: Operation,
  input: Record<string, unknown>,
  style: ParameterStyle,
  sourceOf: (p: Parameter | undefined) => ValueSource = () => styleSource(style),
): ParseResult {
  const errors: ParameterError[] = [];
  const byName = parametersByName(op);
  for (const name of Object.keys(input)) {
    if (!byName.has(name)) {
      errors.push({ message: RULE_MESSAGES.unknownParameter(displayName(name)), path: [...sourceOf(undefined).path, name] });
    }
  }
  const given = (p: Parameter): boolean => {
    const value = Object.hasOwn(input, p.name) ? input[p.name] : undefined;
    if (value === undefined || (value === null && style === 'graphql')) return false;
    // A proto3 string without `optional` cannot tell "" from absent over gRPC, so the core answers
    // "is required" for it; the shape check reads "" the same way to say the same.
    return !(value === '' && p.kind === 'string' && p.field.presence === FieldPresence.IMPLICIT);
  };
  const pathOf = (p: Parameter): string[] => [...sourceOf(p).path, p.name];
  // As in the core: exactly-one-of groups before the values of their members.
  const group = checkGroups(op.parameters, (p) => given(p as Parameter));
  if (group) errors.push({ message: group.message, path: pathOf(group.parameter as Parameter) });
  const request: Record<string, unknown> = {};
  for (const p of op.parameters) {
    if (!given(p)) {
      if (p.required) errors.push({ message: RULE_MESSAGES.required(p.name), path: pathOf(p) });
      continue;
    }
    // Only nested objects point errors inside themselves: scalars get their path on failure, so the
    // metered hot path builds no path array for a parameter that is fine.
    const nested = p.kind === 'object' || p.kind === 'object-list';
    const checked = checkParameter(p, input[p.name], sourceOf(p).text, nested ? pathOf(p) : NO_PATH);
    if (checked.ok) request[p.field.localName] = checked.value;
    else errors.push({ message: checked.message, path: checked.path ?? pathOf(p) });
  }
  for (const [list, flag] of listFlags(op)) if (given(list) && !given(flag)) request[flag.field.localName] = true;
  return errors.length > 0 ? { ok: false, errors } : { ok: true, request };
}

/** Typed default of a parameter as a JSON value (for schemas). */
export function typedDefault(p: Parameter): unknown {
  if (p.defaultValue === undefined) return undefined;
  if (p.kind === 'integer' || p.kind === 'number') return Number(p.defaultValue);
  if (p.kind === 'boolean') return p.defaultValue === 'true';
  return p.defaultValue;
}
