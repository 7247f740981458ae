import { type DescMessage, type Message, isFieldSet } from '@bufbuild/protobuf';
import { type ParameterRules, checkEnumNumber, checkGroups, checkNumber, checkString, requestRules, RULE_MESSAGES, ruleValue } from '@retail/contract';
import { invalidArgument } from '../errors.js';

/**
 * The declarative half of validation: the rules each request field declares in its
 * `(retail.v1.parameter)` option, read and checked by @retail/contract (the same reading and the
 * same message table the gateways' shape checks use), so the core, authority on every request it
 * receives, internal gRPC callers included, answers exactly what a gateway would. Semantic checks
 * (check digits, hosts) live in the other modules.
 *
 * `fieldPath` carries the request-message field name (`search_term`) as docs/contract.md asks.
 */

function fail(r: ParameterRules, message: string | undefined): void {
  if (message !== undefined) throw invalidArgument(message, r.field.name);
}

const valueOf = (message: Message, r: ParameterRules): unknown => (message as unknown as Record<string, unknown>)[r.field.localName];

function checkField(message: Message, r: ParameterRules): void {
  const { field } = r;
  const value = valueOf(message, r);
  if (field.fieldKind === 'list') {
    for (const item of value as unknown[]) {
      if (field.listKind === 'enum') fail(r, checkEnumNumber(r, item as number, false));
      else if (typeof item === 'string') fail(r, checkString(r, item));
    }
    return;
  }
  if (field.fieldKind !== 'scalar') return;
  if (!isFieldSet(message, field)) {
    if (r.required) throw invalidArgument(RULE_MESSAGES.required(r.name), field.name);
    return;
  }
  if (typeof value === 'string') {
    // The normalizers after this read the message itself, so the value the rules read is written back
    // (a trimmed identifier): a gRPC caller's " B08N5WRWNW " is then the ASIN, as on the gateways.
    const read = ruleValue(r, value);
    (message as unknown as Record<string, unknown>)[field.localName] = read;
    fail(r, checkString(r, read));
  } else if (typeof value === 'number' || typeof value === 'bigint') fail(r, checkNumber(r, Number(value)));
}

/** Throws INVALID_ARGUMENT for the first declared rule the message breaks. */
export function checkDeclaredRules(desc: DescMessage, message: Message): void {
  // Enums first (domain), then exactly-one groups, then each field in declaration order.
  const rules = requestRules(desc);
  for (const r of rules) {
    if (r.field.fieldKind === 'enum') fail(r, checkEnumNumber(r, valueOf(message, r) as number, true));
  }
  const group = checkGroups(rules, (r) => isFieldSet(message, r.field));
  if (group) throw invalidArgument(group.message, group.parameter.field.name);
  for (const r of rules) checkField(message, r);
}
