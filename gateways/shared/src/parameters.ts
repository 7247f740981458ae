/**
 * Shape checks of client parameters against the registry, shared by the three interfaces. Only
 * the shape (known name, type, enum name, bounds, pattern, length) is checked here; the core
 * remains the authority on meaning (check digits, marketplace hosts, exactly-one-of groups).
 */
import { ScalarType } from '@bufbuild/protobuf';
import type { Operation, Parameter } from './registry.js';

/** Where the parameters came from: REST query strings, GraphQL arguments, MCP tool arguments. */
export type ParameterStyle = 'rest' | 'graphql' | 'mcp';

export interface ParameterError {
  readonly message: string;
  /** `["query", name]` on REST, `[name]` on GraphQL and MCP (CONTRACT.md). */
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

function pathOf(style: ParameterStyle, name: string): string[] {
  return style === 'rest' ? ['query', name] : [name];
}

const patternCache = new Map<string, RegExp>();
function compiled(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    patternCache.set(pattern, re);
  }
  return re;
}

function boundsMessage(p: Parameter): string {
  if (p.minimum !== undefined && p.maximum !== undefined) return `${p.name} must be between ${p.minimum} and ${p.maximum}`;
  if (p.minimum !== undefined) return `${p.name} must be at least ${p.minimum}`;
  return `${p.name} must be at most ${p.maximum}`;
}

type Checked = { ok: true; value: unknown } | { ok: false; message: string };

function checkString(p: Parameter, value: unknown): Checked {
  if (typeof value !== 'string') return { ok: false, message: `${p.name} must be a string` };
  const length = [...value].length;
  if (p.minLength !== undefined && length < p.minLength) {
    return { ok: false, message: `${p.name} must be at least ${p.minLength} characters long` };
  }
  if (p.maxLength !== undefined && length > p.maxLength) {
    return { ok: false, message: `${p.name} must be at most ${p.maxLength} characters long` };
  }
  if (p.pattern && !compiled(p.pattern).test(value)) return { ok: false, message: `${p.name} is malformed` };
  return { ok: true, value };
}

function checkNumber(p: Parameter, value: unknown, style: ParameterStyle, integer: boolean): Checked {
  let n: number;
  if (style === 'rest') {
    const text = String(value);
    const shape = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    if (!shape.test(text)) return { ok: false, message: `${p.name} must be ${integer ? 'an integer' : 'a number'}` };
    n = Number(text);
  } else {
    if (typeof value !== 'number') return { ok: false, message: `${p.name} must be ${integer ? 'an integer' : 'a number'}` };
    n = value;
  }
  if (!Number.isFinite(n) || (integer && !Number.isSafeInteger(n))) {
    return { ok: false, message: `${p.name} must be ${integer ? 'an integer' : 'a number'}` };
  }
  if ((p.minimum !== undefined && n < p.minimum) || (p.maximum !== undefined && n > p.maximum)) {
    return { ok: false, message: boundsMessage(p) };
  }
  // protobuf-es holds 64-bit integers as bigint whatever the jstype (see @retail/contract wire.ts).
  return { ok: true, value: integer && is64Bit(p) ? BigInt(n) : n };
}

function is64Bit(p: Parameter): boolean {
  const f = p.field;
  return f.fieldKind === 'scalar' && SIXTY_FOUR_BIT.has(f.scalar) && !f.longAsString;
}

const SIXTY_FOUR_BIT = new Set<ScalarType>([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function checkBoolean(p: Parameter, value: unknown, style: ParameterStyle): Checked {
  if (typeof value === 'boolean') return { ok: true, value };
  if (style === 'rest' && (value === 'true' || value === 'false')) return { ok: true, value: value === 'true' };
  return { ok: false, message: `${p.name} must be true or false` };
}

function checkEnum(p: Parameter, value: unknown): Checked {
  const found = typeof value === 'string' ? p.enumDesc?.values.find((v) => v.number !== 0 && v.localName === value) : undefined;
  if (!found) return { ok: false, message: `${p.name} must be one of ${(p.enumValues ?? []).join(', ')}` };
  return { ok: true, value: found.number };
}

function checkScalar(p: Parameter, value: unknown, style: ParameterStyle, itemKind: ParameterKindScalar): Checked {
  switch (itemKind) {
    case 'string':
      return checkString(p, value);
    case 'integer':
      return checkNumber(p, value, style, true);
    case 'number':
      return checkNumber(p, value, style, false);
    case 'boolean':
      return checkBoolean(p, value, style);
    case 'enum':
      return checkEnum(p, value);
  }
}

type ParameterKindScalar = 'string' | 'integer' | 'number' | 'boolean' | 'enum';

function checkList(p: Parameter, value: unknown, style: ParameterStyle): Checked {
  // REST writes lists as one comma-separated value; GraphQL and MCP send arrays.
  const items = style === 'rest' ? (typeof value === 'string' ? value.split(',') : undefined) : Array.isArray(value) ? value : undefined;
  if (!items) return { ok: false, message: `${p.name} must be a list` };
  const itemKind: ParameterKindScalar = p.kind === 'enum-list' ? 'enum' : 'string';
  const out: unknown[] = [];
  for (const item of items) {
    const checked = checkScalar(p, item, style, itemKind);
    if (!checked.ok) return checked;
    out.push(checked.value);
  }
  return { ok: true, value: out };
}

function checkParameter(p: Parameter, value: unknown, style: ParameterStyle): Checked {
  if (style === 'rest' && Array.isArray(value)) return { ok: false, message: `${p.name} must be given once` };
  if (p.kind === 'string-list' || p.kind === 'enum-list') return checkList(p, value, style);
  return checkScalar(p, value, style, p.kind);
}

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
 * REST values are query strings (an array means the parameter was repeated); GraphQL and MCP
 * values are JSON values. GraphQL `null` means "not given".
 */
export function parseParameters(op: Operation, input: Record<string, unknown>, style: ParameterStyle): ParseResult {
  const errors: ParameterError[] = [];
  const byName = parametersByName(op);
  for (const name of Object.keys(input)) {
    if (!byName.has(name)) {
      errors.push({ message: `unknown parameter ${displayName(name)}`, path: pathOf(style, name) });
    }
  }
  const request: Record<string, unknown> = {};
  for (const p of op.parameters) {
    const value = Object.hasOwn(input, p.name) ? input[p.name] : undefined;
    if (value === undefined || (value === null && style === 'graphql')) {
      if (p.required) errors.push({ message: `${p.name} is required`, path: pathOf(style, p.name) });
      continue;
    }
    const checked = checkParameter(p, value, style);
    if (checked.ok) request[p.field.localName] = checked.value;
    else errors.push({ message: checked.message, path: pathOf(style, p.name) });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, request };
}

/** Typed default of a parameter as a JSON value (for schemas). */
export function typedDefault(p: Parameter): unknown {
  if (p.defaultValue === undefined) return undefined;
  if (p.kind === 'integer' || p.kind === 'number') return Number(p.defaultValue);
  if (p.kind === 'boolean') return p.defaultValue === 'true';
  return p.defaultValue;
}
