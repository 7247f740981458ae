/**
 * Each marketplace fault, once per interface: the documented status (502 error page, reset or
 * truncated body; 503 captcha; 504 past the deadline; 502 for a redirect off the marketplace
 * origin), nothing charged, and no redirect followed to another marketplace, a foreign host or
 * another port (issue 12, defect 1). A same-origin redirect is still followed and charged once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';
import { type ChaosStack, startChaosStack } from './chaos-stack.js';
import { type Fault, FAULT_KINDS } from './fault-proxy.js';
import { FIXTURE_CALLS } from './fixture-calls.js';
import { CALLERS, type CallOutcome, type InterfaceName } from './interface-calls.js';
import { accountFigures, fundedAccount } from './ledger-figures.js';

const missing = redisMissing();
if (missing) console.log(`chaos tier: ${missing}`);

/** REST status per fault (docs/contract.md, Errors); GraphQL and MCP carry the same code inside a 200. */
const EXPECTED_STATUS: Record<Fault, number> = {
  unavailable: 502,
  slow: 504,
  reset: 502,
  captcha: 503,
  truncated: 502,
  'redirect-other-marketplace': 502,
  'redirect-foreign-host': 502,
  'redirect-other-port': 502,
  'redirect-same-origin': 200,
};

/** The status a failed call reports, wherever its interface puts it. */
function reportedStatus(iface: InterfaceName, outcome: CallOutcome): number {
  if (outcome.status !== 200 || outcome.succeeded > 0) return outcome.status;
  if (iface === 'graphql') return (outcome.body as { errors: { code: number }[] }).errors[0]!.code;
  return (outcome.body as { result: { structuredContent: { errors: { code: number }[] } } }).result.structuredContent.errors[0]!.code;
}

describe.skipIf(missing)('marketplace faults', () => {
  let redis: RedisServer;
  let stack: ChaosStack;
  beforeAll(async () => {
    redis = await startRedis();
    stack = await startChaosStack({ ledgerUrl: redis.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  it('answer their documented status, charge only the followed same-origin redirect, and never follow a redirect off the marketplace origin', async () => {
    const start = 100;
    const { accountId, key } = await fundedAccount(stack.ledger, start);
    const call = FIXTURE_CALLS[0]!;
    const seen: string[] = [];
    let successes = 0;
    let headerSum = 0;
    for (const fault of [...FAULT_KINDS, 'redirect-same-origin'] as const) {
      for (const iface of ['rest', 'graphql', 'mcp'] as const) {
        stack.proxy.setPlan(() => fault);
        const outcome = await CALLERS[iface](stack.url, key, call);
        successes += outcome.succeeded;
        headerSum += outcome.chargedHeader;
        seen.push(`${fault}/${iface}: ${reportedStatus(iface, outcome)} charged ${outcome.chargedHeader}`);
      }
    }
    stack.proxy.setPlan(undefined);
    const expected = [...FAULT_KINDS, 'redirect-same-origin' as const].flatMap((fault) =>
      (['rest', 'graphql', 'mcp'] as const).map((iface) => `${fault}/${iface}: ${EXPECTED_STATUS[fault]} charged ${fault === 'redirect-same-origin' ? 1 : 0}`),
    );
    const figures = await accountFigures(redis.url, accountId, start);
    console.log(
      `upstream faults: ${seen.length} calls, ${stack.proxy.totalInjected()} faults injected, ${successes} successes, ` +
        `${figures.spent} units spent, ${stack.proxy.sameOriginFollows()} same-origin redirects followed, ` +
        `${stack.proxy.forbiddenFollows.length} forbidden redirects followed ${JSON.stringify(stack.proxy.forbiddenFollows)}`,
    );
    expect(stack.proxy.forbiddenFollows).toEqual([]);
    expect(seen).toEqual(expected);
    expect(stack.proxy.sameOriginFollows()).toBe(3);
    expect({ spent: figures.spent, usage: figures.usageCalls, headers: headerSum }).toEqual({ spent: 3, usage: 3, headers: 3 });
  });
});
