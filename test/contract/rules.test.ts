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
import { errorDetailOf } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../harness/stack.js';
import type { Driver } from './driver.js';
import { DRIVERS } from './drivers/index.js';
import { type RuleCase, ruleCases } from './rule-cases.js';

interface Answer {
  readonly status: number | string;
  readonly message?: string;
  readonly path?: readonly string[];
}

/**
 * Where GraphQL's own machinery answers before any rule of ours runs, GraphQL clients get
 * graphql-js's standard wording (the GraphQL gateway does not yet re-render those errors from
 * RULE_MESSAGES): a `String!` argument left out fails document validation (no argument path); a
 * name outside a GraphQL enum and a variable the operation does not declare fail variable coercion
 * (the path still names the argument). And the two conversions are `retailProduct(gtin|asin)` on
 * GraphQL, so leaving their key out is the product's missing lookup key there.
 */
function graphqlException(c: RuleCase): 'status' | 'status and path' | undefined {
  if (c.rule === 'required') return 'status';
  if (c.rule === 'enum' || c.rule === 'unknownParameter') return 'status and path';
  return undefined;
}

let stack: Stack;
let key = '';
let drivers: Driver[] = [];

beforeAll(async () => {
  stack = await startStack({ mounts: DRIVERS.map((d) => d.mount) });
  const { accountId } = await stack.metering.admin.createAccount({ units: 1_000_000, plan: 'unlimited' });
  key = (await stack.metering.admin.createKey(accountId)).key;
  drivers = await Promise.all(DRIVERS.map((d) => d.create(stack)));
});

afterAll(async () => {
  await stack?.close();
});

async function overGrpc(c: RuleCase): Promise<Answer> {
  try {
    await stack.core.callOperation(c.operation, c.grpc!, { requestId: `rules-${c.id}` });
    return { status: 'OK' };
  } catch (err) {
    const detail = errorDetailOf(ConnectError.from(err));
    return { status: detail ? ErrorReason[detail.reason] : String(err), message: detail?.message, path: detail?.fieldPath };
  }
}

async function overDriver(driver: Driver, c: RuleCase): Promise<Answer> {
  const res = await driver.call(c.operation.name, c.params, { key });
  const first = res.errors?.[0];
  return { status: res.status, message: first?.message, path: first?.path };
}

/** The path of `c`'s parameter in each interface's convention. */
function expectedPath(iface: string, c: RuleCase): string[] {
  if (iface === 'rest') return ['query', c.parameter];
  if (iface === 'grpc') return [c.fieldName];
  return [c.parameter];
}

const CASES = ruleCases();
const tally = { rules: CASES.length, compared: 0, exceptions: 0 };

describe('every rule reads the same on REST, GraphQL, MCP and gRPC', () => {
  it.each(CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const answers = new Map<string, Answer>();
    for (const driver of drivers) answers.set(driver.name, await overDriver(driver, c));
    if (c.grpc && stack.coreKind === 'real') answers.set('grpc', await overGrpc(c));
    const reference = answers.get('rest')!;
    expect(reference.status, JSON.stringify(reference)).toBe(400);
    expect(reference.message).toBeTruthy();
    for (const [iface, answer] of answers) {
      const label = `${iface}: ${JSON.stringify(answer)}`;
      expect(answer.status, label).toBe(iface === 'grpc' ? 'INVALID_ARGUMENT' : 400);
      const exception = iface === 'graphql' ? graphqlException(c) : undefined;
      if (exception) tally.exceptions++;
      if (exception === 'status') continue;
      expect(answer.path, label).toEqual(expectedPath(iface, c));
      if (exception) continue;
      expect(answer.message, label).toBe(reference.message);
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
    console.info(`[rules] ${tally.rules} rules × ${drivers.length + 1} interfaces: ${tally.compared} answers with the identical message and path, ${tally.exceptions} GraphQL type-system answers; core: ${stack.coreKind}`);
  });
});
