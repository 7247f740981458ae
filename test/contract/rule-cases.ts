/**
 * One violating call per rule: every parameter of every operation × every rule kind it declares
 * (required, pattern, length, bounds, enum, exactly-one-of group), plus the rules of meaning the
 * core owns (GTIN check digit, marketplace host, domain/URL agreement) and an unknown parameter.
 * Each case carries the client parameters (REST, GraphQL, MCP) and, when gRPC can express the
 * same mistake, the request message init for the core.
 */
import type { Operation, Parameter } from '@retail/gateway-shared';
import { REGISTRY } from '@retail/gateway-shared';
import { minimalParams } from './cases.js';

export type RuleKind =
  | 'required'
  | 'pattern'
  | 'minLength'
  | 'maxLength'
  | 'minimum'
  | 'maximum'
  | 'enum'
  | 'noneOfGroup'
  | 'severalOfGroup'
  | 'checkDigit'
  | 'marketplaceHost'
  | 'domainMismatch'
  | 'unknownParameter';

export interface RuleCase {
  readonly id: string;
  readonly operation: Operation;
  readonly rule: RuleKind;
  /** The parameter the error must name, as clients write it (`searchTerm`). */
  readonly parameter: string;
  /** Its request-message field name (`search_term`): the gRPC path. */
  readonly fieldName: string;
  /** JSON-typed client parameters, as the drivers take them. */
  readonly params: Record<string, unknown>;
  /** Request message init for the core over gRPC; absent when gRPC cannot carry the mistake. */
  readonly grpc?: Record<string, unknown>;
}

/** A value breaking each declared pattern while keeping its lengths (test data, by pattern). */
const PATTERN_BREAKERS: Record<string, string> = {
  '^[A-Za-z0-9]{10}$': 'B0TEST000!',
  '^https://': 'http://www.amazon.com/dp/B0TEST0001',
  '^https?://': 'ftp://hooks.example.com/receiver/0001',
  '^[0-9Xx -]{8,24}$': '97803064061a',
  '\\S': '   ',
  '^[A-Za-z0-9_./-]{1,120}$': 'home garden',
  '^[a-z0-9-]{1,50}$': 'APS!',
  '^[A-Za-z0-9]{6,20}$': 'A2L7',
};

/** Valid values of the group members a case sets beside the one under test. */
const MEMBER_EXAMPLES: Record<string, Record<string, string>> = {
  lookup: { asin: 'B0TEST0001', gtin: '9780306406157', url: 'https://www.amazon.com/dp/B0TEST0001' },
  category: { categoryId: 'electronics', url: 'https://www.amazon.com/gp/bestsellers/electronics' },
};

/** A URL on another marketplace than the domain (US) the case names, per group. */
const GERMAN_URLS: Record<string, string> = {
  lookup: 'https://www.amazon.de/dp/B0BDJH7WYQ',
  category: 'https://www.amazon.de/gp/bestsellers/electronics',
};

const UNKNOWN_ENUM_NUMBER = 99;

/** Client parameters → the request message init a gRPC caller would send. */
function grpcInit(op: Operation, params: Record<string, unknown>): Record<string, unknown> {
  const init: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const p = op.parameters.find((q) => q.name === name);
    if (!p) throw new Error(`${op.name} has no parameter ${name}`);
    init[p.field.localName] = grpcValue(p, value);
  }
  return init;
}

function grpcValue(p: Parameter, value: unknown): unknown {
  const enumNumber = (v: unknown) => p.enumDesc?.values.find((e) => e.localName === v)?.number ?? UNKNOWN_ENUM_NUMBER;
  if (p.kind === 'enum') return enumNumber(value);
  if (p.kind === 'enum-list') return (value as unknown[]).map(enumNumber);
  if (p.kind === 'integer') return BigInt(value as number);
  return value;
}

function groupMembers(op: Operation, group: string): Parameter[] {
  return op.parameters.filter((p) => p.oneOfGroup === group);
}

/** The minimal valid call, with `p` (when in a group) as its group's only member. */
function baseFor(op: Operation, p?: Parameter): Record<string, unknown> {
  const params = minimalParams(op);
  if (p?.oneOfGroup) for (const m of groupMembers(op, p.oneOfGroup)) if (m !== p) delete params[m.name];
  return params;
}

function valueCases(op: Operation, p: Parameter): Array<[RuleKind, unknown]> {
  const cases: Array<[RuleKind, unknown]> = [];
  const list = p.kind.endsWith('-list');
  const one = (v: unknown) => (list ? [v] : v);
  if (p.kind === 'enum' || p.kind === 'enum-list') cases.push(['enum', one('BOGUS')]);
  if (p.minLength !== undefined) cases.push(['minLength', one('a'.repeat(p.minLength - 1))]);
  if (p.maxLength !== undefined) cases.push(['maxLength', one('a'.repeat(p.maxLength + 1))]);
  if (p.pattern !== undefined) {
    const breaker = PATTERN_BREAKERS[p.pattern];
    if (breaker === undefined) throw new Error(`add a value breaking ${p.pattern} (${op.name}.${p.name}) to PATTERN_BREAKERS`);
    cases.push(['pattern', one(breaker)]);
  }
  if (p.minimum !== undefined) cases.push(['minimum', p.minimum - 1]);
  if (p.maximum !== undefined) cases.push(['maximum', p.maximum + 1]);
  if (p.check === 'gtin') cases.push(['checkDigit', '9780306406158']);
  if (p.name === 'url' && p.oneOfGroup === 'lookup') cases.push(['marketplaceHost', 'https://evil.example/dp/B0TEST0001']);
  if (p.name === 'url' && p.oneOfGroup === 'category') cases.push(['marketplaceHost', 'https://evil.example/gp/bestsellers/electronics']);
  return cases;
}

function caseOf(op: Operation, rule: RuleKind, p: Parameter, params: Record<string, unknown>): RuleCase {
  return { id: `${op.name} ${p.name}: ${rule}`, operation: op, rule, parameter: p.name, fieldName: p.field.name, params, grpc: grpcInit(op, params) };
}

function operationCases(op: Operation): RuleCase[] {
  const cases: RuleCase[] = [];
  for (const p of op.parameters) {
    if (p.required) {
      const params = baseFor(op);
      delete params[p.name];
      cases.push(caseOf(op, 'required', p, params));
    }
    for (const [rule, value] of valueCases(op, p)) cases.push(caseOf(op, rule, p, { ...baseFor(op, p), [p.name]: value }));
  }
  for (const group of new Set(op.parameters.flatMap((p) => (p.oneOfGroup ? [p.oneOfGroup] : [])))) {
    const members = groupMembers(op, group);
    const none = baseFor(op, members[0]);
    delete none[members[0]!.name];
    cases.push(caseOf(op, 'noneOfGroup', members[0]!, none));
    const [first, second] = [members[0]!, members.at(-1)!];
    cases.push(caseOf(op, 'severalOfGroup', second, { ...none, [first.name]: MEMBER_EXAMPLES[group]![first.name], [second.name]: MEMBER_EXAMPLES[group]![second.name] }));
    const url = members.find((m) => m.name === 'url');
    const domain = op.parameters.find((m) => m.name === 'domain');
    if (url && domain) cases.push(caseOf(op, 'domainMismatch', domain, { ...none, url: GERMAN_URLS[group], domain: 'US' }));
  }
  // gRPC has no form of this one: a field the core does not know arrives as a number, not a name.
  cases.push({ id: `${op.name} bogusParam: unknownParameter`, operation: op, rule: 'unknownParameter', parameter: 'bogusParam', fieldName: 'bogusParam', params: { ...minimalParams(op), bogusParam: 'x' } });
  return cases;
}

/** Every rule of every operation. */
export function ruleCases(): RuleCase[] {
  return REGISTRY.flatMap(operationCases);
}
