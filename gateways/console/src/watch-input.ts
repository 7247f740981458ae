/**
 * Checks of the Watches page's bodies and queries against the rules declared in
 * proto/retail/v1/watch.proto (types, enum names, patterns, bounds, required fields, the lookup's
 * exactly-one-of), with the contract's own checks and messages: the page gets every field problem at
 * once, in the words the service would use, before anything is sent. The service stays the
 * authority (it alone knows marketplace hosts, plan limits and webhook address rules).
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import {
  checkGroups,
  checkNumber,
  checkString,
  enumNumber,
  parameterRules,
  requestRules,
  RULE_MESSAGES,
  ruleValue,
  type ParameterRules,
} from '@retail/contract';
import { ValidationError, type FieldProblem } from './errors.js';

type Json = Record<string, unknown>;

const INTEGER_SCALARS = new Set([ScalarType.INT32, ScalarType.UINT32, ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT32, ScalarType.SINT64]);

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** One value of `field` (a list's item for lists); returns the value to send on, or a problem. */
function checkValue(field: DescField, r: ParameterRules, value: unknown, path: string[], problems: FieldProblem[]): unknown {
  const kind = field.fieldKind === 'list' ? field.listKind : field.fieldKind;
  if (kind === 'message') {
    const desc = field.message!;
    return checkMessage(desc, value, path, problems, []);
  }
  let message: string | undefined;
  if (kind === 'enum') {
    const read = enumNumber(r, value);
    message = 'message' in read ? read.message : undefined;
  } else if (field.scalar === ScalarType.STRING) {
    if (typeof value !== 'string') message = RULE_MESSAGES.string(r.name);
    else {
      value = ruleValue(r, value);
      message = checkString(r, value as string);
    }
  } else if (field.scalar === ScalarType.BOOL) {
    if (typeof value !== 'boolean') message = RULE_MESSAGES.boolean(r.name);
  } else if (typeof value !== 'number') {
    message = RULE_MESSAGES.number(r.name);
  } else if (INTEGER_SCALARS.has(field.scalar!) && !Number.isInteger(value)) {
    message = RULE_MESSAGES.integer(r.name);
  } else {
    message = checkNumber(r, value);
  }
  if (message) problems.push({ path, message });
  return value;
}

function checkMessage(desc: DescMessage, value: unknown, path: string[], problems: FieldProblem[], skip: readonly string[]): Json {
  if (!isObject(value)) {
    problems.push({ path, message: path.length === 0 ? 'Expected a JSON object body (Content-Type: application/json)' : `${path.at(-1)} must be an object` });
    return {};
  }
  const rules = requestRules(desc).filter((r) => !skip.includes(r.name));
  const out: Json = {};
  for (const name of Object.keys(value)) {
    if (!rules.some((r) => r.name === name)) problems.push({ path: [...path, name], message: `Unknown field "${name}"` });
  }
  const given = (r: ParameterRules) => value[r.name] !== undefined && value[r.name] !== null;
  for (const r of rules) {
    const fieldPath = [...path, r.name];
    if (!given(r)) {
      if (r.required) problems.push({ path: fieldPath, message: RULE_MESSAGES.required(r.name) });
      continue;
    }
    const raw = value[r.name];
    if (r.field.fieldKind === 'list') {
      if (!Array.isArray(raw)) problems.push({ path: fieldPath, message: RULE_MESSAGES.list(r.name) });
      else out[r.name] = raw.map((item, i) => checkValue(r.field, r, item, [...fieldPath, String(i)], problems));
    } else {
      out[r.name] = checkValue(r.field, r, raw, fieldPath, problems);
    }
  }
  const group = checkGroups(rules, given);
  if (group) problems.push({ path: [...path, group.parameter.name], message: group.message });
  return out;
}

/** A JSON body of `desc` (request fields named by their JSON names), without the `skip` fields. */
export function parseBody<T>(desc: DescMessage, body: unknown, skip: readonly string[] = []): T {
  const problems: FieldProblem[] = [];
  const parsed = checkMessage(desc, body ?? {}, [], problems, skip);
  if (problems.length > 0) throw new ValidationError(problems);
  return parsed as T;
}

/** Query values (strings) of `desc`, numbers read as such; paths are `["query", name]` as REST's. */
export function parseQuery<T>(desc: DescMessage, query: Record<string, unknown>, skip: readonly string[] = []): T {
  const problems: FieldProblem[] = [];
  const rules = requestRules(desc).filter((r) => !skip.includes(r.name));
  const out: Json = {};
  for (const name of Object.keys(query)) {
    if (!rules.some((r) => r.name === name)) problems.push({ path: ['query', name], message: RULE_MESSAGES.unknownParameter(name) });
  }
  for (const r of rules) {
    const raw = query[r.name];
    if (raw === undefined || raw === '') {
      if (r.required) problems.push({ path: ['query', r.name], message: RULE_MESSAGES.required(r.name) });
      continue;
    }
    if (typeof raw !== 'string') {
      problems.push({ path: ['query', r.name], message: RULE_MESSAGES.givenOnce(r.name) });
      continue;
    }
    const numeric = r.field.fieldKind === 'scalar' && r.field.scalar !== ScalarType.STRING;
    const value = numeric && /^[+-]?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    out[r.name] = checkValue(r.field, r, value, ['query', r.name], problems);
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return out as T;
}

/** A path parameter checked by its declared rules (`id`, `watchId`, `deliveryId`): 400 when broken. */
export function parseId(desc: DescMessage, name: string, value: string): string {
  const r = parameterRules(desc.fields.find((f) => f.jsonName === name)!);
  const message = checkString(r, value);
  if (message) throw new ValidationError([{ path: [name], message }]);
  return value;
}
