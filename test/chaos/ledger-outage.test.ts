/**
 * The ledger's Redis crashing (SIGKILL, restarted on the same port with its AOF data) and freezing
 * (SIGSTOP for 3 s, then SIGCONT) under load on all three interfaces (issue 12, defect 2). Calls
 * meanwhile either answer 503 with the error shape or succeed, late if need be, with an exact
 * charge; afterwards units spent = usage counted = successful operations = sum of X-Units-Charged,
 * no hold is left behind, and the service is still up and ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing } from '../harness/redis.js';
import { tally, unexpectedStatuses } from './billing-tally.js';
import { runBounded } from './bounded-load.js';
import { type ChaosStack, startChaosStack } from './chaos-stack.js';
import { type DurableRedis, startDurableRedis } from './durable-redis.js';
import { FIXTURE_CALLS } from './fixture-calls.js';
import { CALLERS, type CallOutcome, type InterfaceName } from './interface-calls.js';
import { type AccountFigures, accountFigures, fundedAccount } from './ledger-figures.js';

const missing = redisMissing();
if (missing) console.log(`chaos tier: ${missing}`);

const START_UNITS = 100_000;
const INTERFACES: InterfaceName[] = ['rest', 'graphql', 'mcp'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The code a failed call reports (REST/GraphQL status line; MCP error data or isError envelope). */
function failureCode(outcome: CallOutcome): number | undefined {
  const body = outcome.body as {
    errors?: { code?: number }[];
    error?: { data?: { errors?: { code?: number }[] } };
    result?: { isError?: boolean; structuredContent?: { errors?: { code?: number }[] } };
  };
  return body?.errors?.[0]?.code ?? body?.error?.data?.errors?.[0]?.code ?? body?.result?.structuredContent?.errors?.[0]?.code;
}

describe.skipIf(missing)('a ledger outage under load', () => {
  let redis: DurableRedis;
  let stack: ChaosStack;
  beforeAll(async () => {
    redis = await startDurableRedis();
    // No marketplace faults here: only the ledger fails, and the production deadline applies.
    stack = await startChaosStack({ ledgerUrl: redis.url, coreDeadlineMs: 10_000 });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  /** Load on the three interfaces for `windowMs` while `outage` runs; then the ledger's and the answers' figures. */
  async function underLoad(windowMs: number, outage: () => Promise<void>) {
    const { accountId, key } = await fundedAccount(stack.ledger, START_UNITS);
    const load = runBounded(3_000, 12, windowMs, (i) => CALLERS[INTERFACES[i % 3]!](stack.url, key, FIXTURE_CALLS[i % FIXTURE_CALLS.length]!));
    await outage();
    const outcomes = await load;
    // Settles that waited out the outage may still be landing: wait (bounded) until no hold is left.
    let figures: AccountFigures = await accountFigures(redis.url, accountId, START_UNITS);
    for (const stopAt = Date.now() + 8_000; figures.held > 0 && Date.now() < stopAt; ) {
      await sleep(250);
      figures = await accountFigures(redis.url, accountId, START_UNITS);
    }
    let ready = 0;
    for (const stopAt = Date.now() + 10_000; ready !== 200 && Date.now() < stopAt; await sleep(200)) {
      ready = (await fetch(`${stack.url}/readyz`).catch(() => undefined))?.status ?? 0;
    }
    const failures = outcomes.filter((o) => o.status !== 200 || (o.succeeded === 0 && failureCode(o) !== undefined));
    return { t: tally(outcomes), figures, ready, failureCodes: [...new Set(failures.map(failureCode))] };
  }

  function check(label: string, { t, figures, ready, failureCodes }: Awaited<ReturnType<typeof underLoad>>) {
    console.log(
      `${label}: ${t.calls} calls, ${t.successes} successful operations, ${t.headerUnits} units in headers, ledger spent ${figures.spent} ` +
        `(usage ${figures.usageCalls}, still held ${figures.held}), statuses ${JSON.stringify(t.statuses)}, failure codes ${JSON.stringify(failureCodes)}`,
    );
    expect(unexpectedStatuses(t, [200, 503])).toEqual({});
    expect(failureCodes.filter((c) => c !== 503)).toEqual([]);
    expect({ malformed: t.malformedFailures, missingHeaders: t.missingHeaders, bodyHeaderMismatches: t.bodyHeaderMismatches }).toEqual({
      malformed: 0,
      missingHeaders: 0,
      bodyHeaderMismatches: 0,
    });
    expect({ spent: figures.spent, usage: figures.usageCalls, headers: t.headerUnits, held: figures.held }).toEqual({
      spent: t.successes,
      usage: t.successes,
      headers: t.successes,
      held: 0,
    });
    expect(ready, 'the service is up and ready again').toBe(200);
  }

  it('keeps units spent equal to successes and charged headers through a Redis crash and restart', async () => {
    const result = await underLoad(5_000, async () => {
      await sleep(1_000);
      await redis.crash();
      await sleep(1_500);
      await redis.restart();
    });
    check('ledger crash + restart (1.5 s down)', result);
    expect(result.t.statuses[503] ?? 0, 'the outage was met by some calls').toBeGreaterThan(0);
  });

  it('keeps units spent equal to successes and charged headers through a 3 s Redis freeze', async () => {
    const result = await underLoad(6_000, async () => {
      await sleep(1_000);
      redis.freeze();
      await sleep(3_000);
      redis.thaw();
    });
    check('ledger freeze (SIGSTOP 3 s)', result);
  });
});
