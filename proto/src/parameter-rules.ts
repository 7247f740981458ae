/**
 * The one reading of the `(retail.v1.parameter)` options. The core's validation and the gateways'
 * registry, shape checks and JSON Schemas all take a request field's rules from here, so an
 * option is interpreted in exactly one place.
 *
 * Why the project's own option and not `buf.validate` through @bufbuild/protovalidate: the npm
 * package ships only the generated descriptors, not `buf/validate/validate.proto` that `buf
 * generate` needs to compile annotated files, and buf cannot reach the BSR here; the exactly-one-of
 * groups, GTIN check digits, marketplace URLs and the client-facing names (GraphQL argument
 * holders, defaults) need options of our own anyway; and protovalidate's violation texts would
 * still have to be re-rendered from our message table. One option, one reader, one table.
 */
import { type DescEnum, type DescField, type DescMessage, getOption, hasOption } from '@bufbuild/protobuf';
import { ParameterCheck, type ParameterOptions, parameter } from './gen/retail/v1/options_pb.js';
import { RULE_MESSAGES } from './rule-messages.js';

/** The declared rules of one request parameter (one field of a request message). */
export interface ParameterRules {
  /** Wire name (the field's JSON name): `searchTerm`, `page`; messages name the parameter so. */
  readonly name: string;
  /** The request message field it fills; its `name` (`search_term`) is the gRPC error path. */
  readonly field: DescField;
  /** ECMAScript regular expression a string (or each list item) must match. */
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  /** Lengths in code points, as JSON Schema counts them. */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Default as the client would write it ("US", "1"). */
  readonly defaultValue?: string;
  readonly required: boolean;
  /** GraphQL: nested field taking this parameter as an argument ("productResults"). */
  readonly graphqlArgumentOf?: string;
  /** As published (OpenAPI, MCP inputSchema, GraphQL argument docs): the declared text, plus the group's rule for a group member. */
  readonly description: string;
  /** Name of an exactly-one-of set ("lookup"). */
  readonly oneOfGroup?: string;
  /** Enum values as clients write them (prefix stripped, UNSPECIFIED left out). */
  readonly enumValues?: readonly string[];
  /** A check of meaning beyond the pattern (`check: PARAMETER_CHECK_GTIN`). */
  readonly check?: 'gtin';
  /** Surrounding whitespace is not part of the value (TRIMMED_PARAMETERS); see ruleValue. */
  readonly trimmed: boolean;
}

/**
 * The lookup identifiers (wire names): clients paste them from pages and spreadsheets, so a space
 * around one is never part of it. Every interface trims them before any rule reads the value, and
 * the core receives the trimmed value: " B08N5WRWNW " and " 4006381333931 " read alike.
 */
const TRIMMED_PARAMETERS: ReadonlySet<string> = new Set(['asin', 'gtin', 'url']);

const CHECKS: Readonly<Record<ParameterCheck, ParameterRules['check']>> = {
  [ParameterCheck.UNSPECIFIED]: undefined,
  [ParameterCheck.GTIN]: 'gtin',
};

/** Enum value names as they travel on the wire: prefix stripped, UNSPECIFIED left out. */
export function wireEnumValues(desc: DescEnum): string[] {
  return desc.values.filter((v) => v.number !== 0).map((v) => v.localName);
}

/** The enum of an enum field or of a list of enums. */
export function fieldEnum(field: DescField): DescEnum | undefined {
  if (field.fieldKind === 'enum') return field.enum;
  if (field.fieldKind === 'list' && field.listKind === 'enum') return field.enum;
  return undefined;
}

function optionsOf(field: DescField): ParameterOptions {
  if (!hasOption(field, parameter)) {
    throw new Error(`request field ${field.parent.typeName}.${field.name} lacks the (retail.v1.parameter) option`);
  }
  return getOption(field, parameter);
}

/**
 * False for a request field the gateways set themselves (`internal`): no interface publishes or
 * accepts it from a client.
 */
export function isClientParameter(field: DescField): boolean {
  return !(hasOption(field, parameter) && getOption(field, parameter).internal);
}

/** The declared description, and for a group member the sentence its group implies. */
function publishedDescription(field: DescField, o: ParameterOptions): string {
  if (!o.oneOfGroup) return o.description;
  const members = field.parent.fields.filter((f) => hasOption(f, parameter) && getOption(f, parameter).oneOfGroup === o.oneOfGroup);
  return `${o.description} ${RULE_MESSAGES.groupDescription(members.map((f) => f.jsonName))}`;
}

const byField = new WeakMap<DescField, ParameterRules>();

/** The rules of one request field; throws when the field declares none (every parameter must). */
export function parameterRules(field: DescField): ParameterRules {
  const cached = byField.get(field);
  if (cached) return cached;
  const o = optionsOf(field);
  const enumDesc = fieldEnum(field);
  const rules: ParameterRules = {
    name: field.jsonName,
    field,
    ...(o.pattern ? { pattern: o.pattern } : {}),
    ...(o.minimum !== undefined ? { minimum: o.minimum } : {}),
    ...(o.maximum !== undefined ? { maximum: o.maximum } : {}),
    ...(o.minLength !== undefined ? { minLength: o.minLength } : {}),
    ...(o.maxLength !== undefined ? { maxLength: o.maxLength } : {}),
    ...(o.defaultValue ? { defaultValue: o.defaultValue } : {}),
    required: o.required,
    ...(o.graphqlArgumentOf ? { graphqlArgumentOf: o.graphqlArgumentOf } : {}),
    description: publishedDescription(field, o),
    ...(o.oneOfGroup ? { oneOfGroup: o.oneOfGroup } : {}),
    ...(enumDesc ? { enumValues: wireEnumValues(enumDesc) } : {}),
    ...(CHECKS[o.check] ? { check: CHECKS[o.check] } : {}),
    trimmed: TRIMMED_PARAMETERS.has(field.jsonName),
  };
  byField.set(field, rules);
  return rules;
}

const byMessage = new WeakMap<DescMessage, readonly ParameterRules[]>();

/** The rules of every field of a request message, in declaration order. */
export function requestRules(desc: DescMessage): readonly ParameterRules[] {
  let rules = byMessage.get(desc);
  if (!rules) {
    rules = desc.fields.map(parameterRules);
    byMessage.set(desc, rules);
  }
  return rules;
}

const groupsCache = new WeakMap<readonly ParameterRules[], Map<string, ParameterRules[]>>();

/** The exactly-one-of groups among `rules`: group name → members in declaration order. */
export function oneOfGroups(rules: readonly ParameterRules[]): ReadonlyMap<string, readonly ParameterRules[]> {
  let groups = groupsCache.get(rules);
  if (!groups) {
    groups = new Map();
    for (const r of rules) {
      if (r.oneOfGroup) groups.set(r.oneOfGroup, [...(groups.get(r.oneOfGroup) ?? []), r]);
    }
    groupsCache.set(rules, groups);
  }
  return groups;
}
