/**
 * The checks a request gets before a handler reads it, all from what is declared once: the
 * `(retail.v1.parameter)` rules of the proto (patterns, lengths, ranges, exactly-one-of groups, GTIN
 * check digits) through the contract's shared readers, the condition rules of conditions/parse.ts and
 * the webhook URL rules of webhooks/url-check.ts. A broken rule is INVALID_ARGUMENT naming the field
 * by its proto name (`interval_seconds`, `webhook.url`), as the core names its fields.
 */
import { type DescMessage, type Message, isFieldSet } from '@bufbuild/protobuf';
import {
  Domain, type ParameterRules, RULE_MESSAGES, WatchConditionType, type WatchCondition, checkEnumNumber, checkGroups, checkNumber,
  checkString, requestRules, ruleValue,
} from '@retail/contract';
import { parseConditions } from '../conditions/parse.js';
import type { Condition, DomainCode } from '../model.js';
import { checkWebhookUrl, type TargetPolicy } from '../webhooks/index.js';
import { invalidArgument } from './errors.js';

function isScalar(r: ParameterRules): boolean {
  return r.field.fieldKind === 'scalar' || r.field.fieldKind === 'enum';
}

/** The first broken declared rule among the message's top-level scalar fields, thrown. */
export function checkDeclaredRules(desc: DescMessage, message: Message): void {
  const rules = requestRules(desc);
  const fields = message as unknown as Record<string, unknown>;
  for (const r of rules.filter(isScalar)) {
    const given = isFieldSet(message, r.field);
    if (!given) {
      if (r.required) throw invalidArgument(RULE_MESSAGES.required(r.name), r.field.name);
      continue;
    }
    const value = fields[r.field.localName];
    const problem = typeof value === 'string' ? checkString(r, ruleValue(r, value))
      : r.field.fieldKind === 'enum' ? checkEnumNumber(r, value as number, !r.required)
        : typeof value === 'number' ? checkNumber(r, value) : undefined;
    if (problem) throw invalidArgument(problem, r.field.name);
  }
  const group = checkGroups(rules, (r) => isFieldSet(message, r.field));
  if (group) throw invalidArgument(group.message, group.parameter.field.name);
}

/** A marketplace named by its code in an internal request ("us", "DE"), upper-cased; INVALID_ARGUMENT on `marketplace` otherwise. */
export function marketplaceCodeOf(marketplace: string): DomainCode {
  const code = marketplace.toUpperCase();
  // The enum object maps numbers back to names too: "1" is no marketplace.
  if (code === 'UNSPECIFIED' || !(code in Domain) || !Number.isNaN(Number(code))) throw invalidArgument(`unknown marketplace ${JSON.stringify(marketplace)}`, 'marketplace');
  return code as DomainCode;
}

/** A request's marketplace: UNSPECIFIED is the declared default, US. */
export function domainCodeOf(domain: Domain): DomainCode {
  return domain === Domain.UNSPECIFIED ? 'US' : (Domain[domain] as DomainCode);
}

/** The proto conditions, checked by the one condition parser (types, values, at most ten, no twins). */
export function conditionsOf(conditions: readonly WatchCondition[]): Condition[] {
  const parsed = parseConditions(conditions.map((c) => ({
    // UNSPECIFIED and unknown numbers stay unnamed, so the parser reports the allowed types.
    type: c.type === WatchConditionType.UNSPECIFIED ? undefined : WatchConditionType[c.type],
    ...(c.value !== undefined && { value: c.value }),
  })));
  if (parsed.ok) return parsed.conditions;
  const [first] = parsed.errors;
  throw invalidArgument(first!.message, ...first!.path);
}

/** A webhook URL of a create or update body, checked against the operator's target policy. */
export function webhookUrlOf(url: string, policy: TargetPolicy): string {
  const checked = checkWebhookUrl(url, policy);
  if (checked.ok) return checked.url.href;
  const [first] = checked.errors;
  throw invalidArgument(first!.message, ...first!.path);
}
