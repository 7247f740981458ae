/**
 * The overdraw race: many concurrent calls on an account that can pay for only a few. The balance
 * check and the hold are one atomic ledger script, so exactly as many calls succeed as there were
 * units, the rest answer 402, and the balance ends at 0, never below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';
import { tally, unexpectedErrorCodes, unexpectedStatuses } from './billing-tally.js';
import { type ChaosStack, startChaosStack } from './chaos-stack.js';
import { FIXTURE_CALLS } from './fixture-calls.js';
import { CALLERS, type CallOutcome, type InterfaceName } from './interface-calls.js';
import { accountFigures, fundedAccount, lowestBalanceDuring } from './ledger-figures.js';

const missing = redisMissing();
if (missing) console.log(`chaos tier: ${missing}`);

const CONCURRENT_CALLS = 200;
/** One-operation calls only: every call needs exactly one unit. */
const ONE_UNIT_CALLS = FIXTURE_CALLS.filter((c) => c.graphql.operations === 1);

describe.skipIf(missing)('the overdraw race', () => {
  let redis: RedisServer;
  let stack: ChaosStack;
  beforeAll(async () => {
    redis = await startRedis();
    stack = await startChaosStack({ ledgerUrl: redis.url, coreDeadlineMs: 10_000 });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  for (const { units, interfaces } of [
    { units: 1, interfaces: ['rest'] as InterfaceName[] },
    { units: 7, interfaces: ['rest', 'graphql', 'mcp'] as InterfaceName[] },
  ]) {
    it(`lets exactly ${units} of ${CONCURRENT_CALLS} concurrent calls (${interfaces.join(', ')}) succeed on a balance of ${units}, leaving 0`, async () => {
      const { accountId, key } = await fundedAccount(stack.ledger, units);
      const race: Promise<CallOutcome[]> = Promise.all(
        Array.from({ length: CONCURRENT_CALLS }, (_, i) =>
          CALLERS[interfaces[i % interfaces.length]!](stack.url, key, ONE_UNIT_CALLS[i % ONE_UNIT_CALLS.length]!),
        ),
      );
      const lowest = await lowestBalanceDuring(redis.url, accountId, race);
      const outcomes = await race;
      const t = tally(outcomes);
      const figures = await accountFigures(redis.url, accountId, units);
      console.log(
        `overdraw race (balance ${units}, ${interfaces.join('/')}): ${t.calls} calls, ${t.successes} successes, ` +
          `${t.headerUnits} units in headers, ${figures.spent} spent, balance ${figures.balance} (lowest seen ${lowest}), statuses ${JSON.stringify(t.statuses)}`,
      );
      // A refused MCP call answers HTTP 402 with a JSON-RPC error; GraphQL and REST the envelope.
      expect(unexpectedStatuses(t, [200, 402])).toEqual({});
      expect(unexpectedErrorCodes(t, [402])).toEqual({});
      expect(t.malformedFailures).toBe(0);
      expect({ successes: t.successes, headers: t.headerUnits, spent: figures.spent, usage: figures.usageCalls }).toEqual({
        successes: units,
        headers: units,
        spent: units,
        usage: units,
      });
      expect({ balance: figures.balance, held: figures.held }).toEqual({ balance: 0, held: 0 });
      expect(lowest).toBeGreaterThanOrEqual(0);
    });
  }
});
