/**
 * The checks of the declared parameter rules, shared by the core (typed request messages) and the
 * gateways (client values after their type conversion). Each returns the client-facing message of
 * the first rule broken, from the one message table, or undefined when the value passes.
 */
import { readGtin } from './gtin.js';
import { type ParameterRules, fieldEnum, oneOfGroups } from './parameter-rules.js';
import { RULE_MESSAGES } from './rule-messages.js';

const compiled = new Map<string, RegExp>();
function patternOf(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    compiled.set(pattern, re);
  }
  return re;
}

/** The value a string parameter's rules read and the core receives: a trimmed parameter's surrounding whitespace removed. */
export function ruleValue(r: ParameterRules, value: string): string {
  return r.trimmed ? value.trim() : value;
}

/** Length, pattern, then the declared check (a too-long value is reported as too long, whatever it contains). */
export function checkString(r: ParameterRules, value: string): string | undefined {
  const length = [...value].length;
  if (r.minLength !== undefined && length < r.minLength) return RULE_MESSAGES.minLength(r.name, r.minLength);
  if (r.maxLength !== undefined && length > r.maxLength) return RULE_MESSAGES.maxLength(r.name, r.maxLength);
  if (r.pattern && !patternOf(r.pattern).test(value)) return RULE_MESSAGES.pattern(r.name, r.pattern);
  if (r.check === 'gtin') {
    const read = readGtin(value, r.name);
    if ('message' in read) return read.message;
  }
  return undefined;
}

export function checkNumber(r: ParameterRules, value: number): string | undefined {
  if (!Number.isFinite(value)) return RULE_MESSAGES.number(r.name);
  if ((r.minimum !== undefined && value < r.minimum) || (r.maximum !== undefined && value > r.maximum)) {
    return RULE_MESSAGES.range(r.name, r.minimum, r.maximum);
  }
  return undefined;
}

/** An enum number from a typed message; UNSPECIFIED (0) means "not given" only where allowed. */
export function checkEnumNumber(r: ParameterRules, value: number, allowUnspecified: boolean): string | undefined {
  const known = fieldEnum(r.field)?.values.some((v) => v.number === value) ?? false;
  return known && (allowUnspecified || value !== 0) ? undefined : RULE_MESSAGES.enumValue(r.name, r.enumValues ?? []);
}

/** An enum value as a client writes it ("FIVE_STAR") → its number, or the message. */
export function enumNumber(r: ParameterRules, value: unknown): { number: number } | { message: string } {
  const found = typeof value === 'string' ? fieldEnum(r.field)?.values.find((v) => v.number !== 0 && v.localName === value) : undefined;
  return found ? { number: found.number } : { message: RULE_MESSAGES.enumValue(r.name, r.enumValues ?? []) };
}

export interface GroupViolation {
  /** The member the error names: the first when none is given, the first extra one when several. */
  readonly parameter: ParameterRules;
  readonly message: string;
}

/** The exactly-one-of groups among `rules`, given which parameters the request carries. */
export function checkGroups(rules: readonly ParameterRules[], isGiven: (r: ParameterRules) => boolean): GroupViolation | undefined {
  for (const members of oneOfGroups(rules).values()) {
    const names = members.map((m) => m.name);
    const given = members.filter(isGiven);
    if (given.length === 0) return { parameter: members[0]!, message: RULE_MESSAGES.noneOfGroup(names) };
    if (given.length > 1) return { parameter: given[1]!, message: RULE_MESSAGES.severalOfGroup(names) };
  }
  return undefined;
}
