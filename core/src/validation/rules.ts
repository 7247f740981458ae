import { type DescField, type DescMessage, type Message, getOption, hasOption, isFieldSet } from '@bufbuild/protobuf';
import { type ParameterOptions, parameter } from '@retail/contract';
import { invalidArgument } from '../errors.js';

/**
 * The declarative half of validation: the rules each request field declares in its
 * `(retail.v1.parameter)` option (required, pattern, min/max length, minimum/maximum,
 * one_of_group) plus enum membership. The same options feed OpenAPI, GraphQL and MCP schemas, so a
 * rule is written once in proto. Semantic checks (check digits, hosts) live in the other modules.
 *
 * Messages name the parameter as clients write it (JSON name, `searchTerm`); `fieldPath` carries
 * the request-message field name (`search_term`) as CONTRACT.md asks.
 */

interface FieldRules {
  readonly field: DescField;
  readonly options: ParameterOptions | undefined;
  readonly pattern: RegExp | undefined;
}

const rulesCache = new WeakMap<DescMessage, readonly FieldRules[]>();

function rulesOf(desc: DescMessage): readonly FieldRules[] {
  let rules = rulesCache.get(desc);
  if (!rules) {
    rules = desc.fields.map((field) => {
      const options = hasOption(field, parameter) ? getOption(field, parameter) : undefined;
      return { field, options, pattern: options?.pattern ? new RegExp(options.pattern, 'u') : undefined };
    });
    rulesCache.set(desc, rules);
  }
  return rules;
}

/** The fields of one one_of_group, in declaration order. */
export function oneOfGroups(desc: DescMessage): Map<string, DescField[]> {
  const groups = new Map<string, DescField[]>();
  for (const { field, options } of rulesOf(desc)) {
    if (!options?.oneOfGroup) continue;
    const list = groups.get(options.oneOfGroup) ?? [];
    list.push(field);
    groups.set(options.oneOfGroup, list);
  }
  return groups;
}

/** "asin, url or gtin" */
function listNames(fields: readonly DescField[]): string {
  const names = fields.map((f) => f.jsonName);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function checkGroups(desc: DescMessage, message: Message): void {
  for (const fields of oneOfGroups(desc).values()) {
    const given = fields.filter((f) => isFieldSet(message, f));
    // Path: the first member when none is given, the first extra one when several are.
    if (given.length === 0) throw invalidArgument(`${listNames(fields)} must be provided`, fields[0]!.name);
    if (given.length > 1) throw invalidArgument(`provide exactly one of ${listNames(fields)}`, given[1]!.name);
  }
}

function checkString(rules: FieldRules, value: string, label: string): void {
  const { options, pattern, field } = rules;
  const length = [...value].length;
  if (options?.minLength !== undefined && length < options.minLength) {
    throw invalidArgument(options.minLength === 1 ? `${label} must not be empty` : `${label} must be at least ${options.minLength} characters`, field.name);
  }
  if (options?.maxLength !== undefined && length > options.maxLength) {
    throw invalidArgument(`${label} must be at most ${options.maxLength} characters`, field.name);
  }
  if (pattern && !pattern.test(value)) {
    // The pattern is published in the API descriptions anyway, so naming it helps and hides nothing.
    const expectation = options?.pattern === '\\S' ? 'must not be blank' : `must match ${options?.pattern}`;
    throw invalidArgument(`${label} ${expectation}`, field.name);
  }
}

function checkNumber(rules: FieldRules, raw: number | bigint, label: string): void {
  const { options, field } = rules;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw invalidArgument(`${label} must be a finite number`, field.name);
  const { minimum, maximum } = options ?? {};
  if (minimum !== undefined && maximum !== undefined && (value < minimum || value > maximum)) {
    throw invalidArgument(`${label} must be between ${minimum} and ${maximum}`, field.name);
  }
  if (minimum !== undefined && value < minimum) throw invalidArgument(`${label} must be at least ${minimum}`, field.name);
  if (maximum !== undefined && value > maximum) throw invalidArgument(`${label} must be at most ${maximum}`, field.name);
}

function checkEnumValue(field: DescField, value: number, allowUnspecified: boolean): void {
  const known = field.enum?.values.some((v) => v.number === value) ?? false;
  if (!known || (!allowUnspecified && value === 0)) {
    throw invalidArgument(`${field.jsonName} has an unknown value`, field.name);
  }
}

/** Throws INVALID_ARGUMENT for the first declared rule the message breaks. */
export function checkDeclaredRules(desc: DescMessage, message: Message): void {
  // Enums first (domain), then exactly-one groups, then each field in declaration order.
  const rules = rulesOf(desc);
  for (const { field } of rules) {
    if (field.fieldKind === 'enum') checkEnumValue(field, (message as unknown as Record<string, number>)[field.localName]!, true);
  }
  checkGroups(desc, message);
  for (const fieldRules of rules) {
    const { field, options } = fieldRules;
    const value = (message as unknown as Record<string, unknown>)[field.localName];
    const label = field.jsonName;
    if (field.fieldKind === 'list') {
      const items = value as unknown[];
      for (const item of items) {
        if (field.listKind === 'enum') checkEnumValue(field, item as number, false);
        else if (typeof item === 'string') checkString(fieldRules, item, label);
      }
      continue;
    }
    if (field.fieldKind !== 'scalar') continue;
    if (!isFieldSet(message, field)) {
      if (options?.required) throw invalidArgument(`${label} is required`, field.name);
      continue;
    }
    if (typeof value === 'string') checkString(fieldRules, value, label);
    else if (typeof value === 'number' || typeof value === 'bigint') checkNumber(fieldRules, value, label);
  }
}
