/**
 * One rule, one message, one path on every interface. For every rule (rule-cases.ts) the same
 * violating call goes through REST, GraphQL and MCP (drivers/) and straight to the core over gRPC,
 * and all four must answer 400 / INVALID_ARGUMENT with the same message, and a path naming the same
 * parameter in each interface's convention (docs/contract.md, Rules that hold across operations):
 *
 *   REST ["query", "searchTerm"] · GraphQL ["searchTerm"] · MCP ["searchTerm"] · gRPC ["search_term"]
 *
 * Whichever side answers (a gateway's shape check or the core's validation), the message comes
 * from the one table in @retail/contract.
 */
import { ConnectError } from '@connectrpc/connect';
import { ErrorReason, RULE_MESSAGES } from '@retail/contract';
import { errorDetailOf, registryOperation } from '@retail/gateway-shared';
import { describe, expect, it } from 'vitest';
import type { Driver } from './driver.js';
import { drivenStack } from './driven-stack.js';
import { type RuleCase, ruleCases } from './rule-cases.js';

interface Answer {
  readonly status: number | string;
  readonly message?: string;
  readonly path?: readonly string[];
}

/**
 * The two conversions have no GraphQL field of their own: they are `retailProduct(gtin|asin) { asin gtin }`,
 * so the same query without its key asks GraphQL for a product with no lookup key. GraphQL's answer
 * must then equal REST's answer to that question (GetProduct with the same parameters).
 */
function graphqlAsksFor(c: RuleCase): string {
  const nestedOnly = c.operation.graphqlFields.every((f) => f.startsWith(`${PRODUCT_ROOT}.`));
  return c.rule === 'required' && nestedOnly ? PRODUCT_OPERATION : c.operation.name;
}
const PRODUCT_ROOT = 'retailProduct';
const PRODUCT_OPERATION = 'GetProduct';

const live = drivenStack();

async function overGrpc(c: RuleCase): Promise<Answer> {
  try {
    await live.stack.core.callOperation(c.operation, c.grpc!, { requestId: `rules-${c.id}` });
    return { status: 'OK' };
  } catch (err) {
    const detail = errorDetailOf(ConnectError.from(err));
    return { status: detail ? ErrorReason[detail.reason] : String(err), message: detail?.message, path: detail?.fieldPath };
  }
}

async function overDriver(driver: Driver, c: RuleCase): Promise<Answer> {
  const res = await driver.call(c.operation.name, c.params, { key: live.key });
  const first = res.errors?.[0];
  return { status: res.status, message: first?.message, path: first?.path };
}

/** GraphQL's due answer: REST's answer to the question its query asks, the path in GraphQL's convention. */
async function graphqlExpectation(c: RuleCase, reference: Answer): Promise<Answer> {
  const question = graphqlAsksFor(c);
  const rest = live.drivers.find((d) => d.name === 'rest')!;
  const answer = question === c.operation.name ? reference : await overDriver(rest, { ...c, operation: registryOperation(question) });
  return { ...answer, path: answer.path?.slice(1) }; // REST ["query", name] → GraphQL [name]
}

/** The path of `c`'s parameter in each interface's convention. */
function expectedPath(iface: string, c: RuleCase): string[] {
  if (iface === 'rest') return ['query', c.parameter];
  if (iface === 'grpc') return [c.fieldName];
  return [c.parameter];
}

const CASES = ruleCases();
const tally = { rules: CASES.length, compared: 0 };

describe('every rule reads the same on REST, GraphQL, MCP and gRPC', () => {
  it.each(CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const answers = new Map<string, Answer>();
    for (const driver of live.drivers) answers.set(driver.name, await overDriver(driver, c));
    if (c.grpc && live.stack.coreKind === 'real') answers.set('grpc', await overGrpc(c));
    const reference = answers.get('rest')!;
    expect(reference.status, JSON.stringify(reference)).toBe(400);
    expect(reference.message).toBeTruthy();
    const forGraphql = await graphqlExpectation(c, reference);
    for (const [iface, answer] of answers) {
      const label = `${iface}: ${JSON.stringify(answer)}`;
      expect(answer.status, label).toBe(iface === 'grpc' ? 'INVALID_ARGUMENT' : 400);
      expect(answer.path, label).toEqual(iface === 'graphql' ? forGraphql.path : expectedPath(iface, c));
      expect(answer.message, label).toBe(iface === 'graphql' ? forGraphql.message : reference.message);
      tally.compared++;
    }
  });

  it('covers every rule kind', () => {
    const kinds = new Set(CASES.map((c) => c.rule));
    for (const kind of ['required', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'enum', 'noneOfGroup', 'severalOfGroup', 'checkDigit', 'marketplaceHost', 'domainMismatch', 'unknownParameter']) {
      expect(kinds.has(kind as RuleCase['rule']), kind).toBe(true);
    }
    // The messages of the group rules are the contract's own words (docs/contract.md, Lookup key).
    expect(RULE_MESSAGES.noneOfGroup(['asin', 'url', 'gtin'])).toBe('asin, url or gtin must be provided');
    expect(RULE_MESSAGES.severalOfGroup(['asin', 'url', 'gtin'])).toBe('provide exactly one of asin, url or gtin');
    console.info(`[rules] ${tally.rules} rules × ${live.drivers.length + 1} interfaces: ${tally.compared} answers with the identical message and path; core: ${live.stack.coreKind}`);
  });
});
