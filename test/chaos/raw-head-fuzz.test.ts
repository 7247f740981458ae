/**
 * Seeded request heads that Node's HTTP parser refuses before any route runs (non-ASCII and
 * control bytes in the target, heads over 16 KiB, broken request and header lines, conflicting
 * framing), sent over raw sockets to `npm start`'s router and to the three gateway deployments as
 * their own processes (issue 12, defect 3): each gets a complete 4xx answer with the envelope, no
 * connection is left hanging, and nothing is charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/ports.js';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';
import { rawHeadCases, sampleCases } from './bad-inputs.js';
import { LOAD_BUDGET_MS, LOADED_TEST_LIMIT_MS, runBounded } from './bounded-load.js';
import { type ChaosStack, startChaosStack } from './chaos-stack.js';
import { rawHeadVerdict } from './fuzz-verdicts.js';
import { accountFigures, fundedAccount } from './ledger-figures.js';
import { launchNode, type NodeProcess } from './node-process.js';
import { rawExchange } from './raw-http.js';

const missing = redisMissing();
if (missing) console.log(`chaos tier: ${missing}`);

const SEED = 431;
const ROUTER_CASES = 500;
const GATEWAY_CASES = 150;
const START_UNITS = 1_000;
const GATEWAYS = [
  { name: 'rest', entry: 'gateways/rest/src/main.ts' },
  { name: 'graphql', entry: 'gateways/graphql/src/main.ts' },
  { name: 'mcp', entry: 'gateways/mcp/src/main.ts' },
] as const;

describe.skipIf(missing)('refused request heads', () => {
  let redis: RedisServer;
  let stack: ChaosStack;
  let account: { accountId: string; key: string };
  const gateways: { name: string; port: number; process: NodeProcess }[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    stack = await startChaosStack({ ledgerUrl: redis.url, coreDeadlineMs: 10_000 });
    account = await fundedAccount(stack.ledger, START_UNITS);
    await Promise.all(
      GATEWAYS.map(async ({ name, entry }) => {
        const port = await freePort();
        const { process } = await launchNode({
          entry,
          env: { HOST: '127.0.0.1', PORT: String(port), CORE_ADDRESS: stack.coreAddress, SERVICE_TOKEN: stack.serviceToken, LEDGER_REDIS_URL: redis.url },
          ready: /gateway listening/,
        });
        gateways.push({ name, port, process });
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.process.stop()));
    await stack?.stop();
    await redis?.stop();
  });

  it('answer every one with a complete 4xx and the envelope, on the router and on each gateway, charging nothing', async () => {
    const cases = sampleCases(rawHeadCases(account.key), SEED, ROUTER_CASES);
    const targets = [
      { name: 'router', port: Number(new URL(stack.url).port), cases },
      ...gateways.map((g) => ({ name: `${g.name} gateway`, port: g.port, cases: cases.slice(0, GATEWAY_CASES) })),
    ];
    const figures: string[] = [];
    const violations: { target: string; request: string; problem: string }[] = [];
    for (const target of targets) {
      const statuses: Record<number, number> = {};
      await runBounded(target.cases.length, 8, LOAD_BUDGET_MS, async (i) => {
        const request = target.cases[i]!;
        const answer = await rawExchange(target.port, request);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        const problem = rawHeadVerdict(answer);
        if (problem) violations.push({ target: target.name, request: JSON.stringify(request.length > 240 ? `${request.subarray(0, 60).toString('latin1')}…${request.subarray(-120).toString('latin1')}` : request.toString('latin1')), problem });
      });
      figures.push(`${target.name}: ${target.cases.length} heads, statuses ${JSON.stringify(statuses)}`);
    }
    const ledger = await accountFigures(redis.url, account.accountId, START_UNITS);
    const byProblem: Record<string, number> = {};
    for (const v of violations) byProblem[`${v.target}: ${v.problem}`] = (byProblem[`${v.target}: ${v.problem}`] ?? 0) + 1;
    console.log(
      `raw head fuzz (seed ${SEED}): ${figures.join('; ')}; ${violations.length} violations ${JSON.stringify(byProblem)}; ${ledger.spent} units charged` +
        (violations.length ? `; e.g. ${JSON.stringify([...violations.filter((v) => !v.problem.startsWith('bare')).slice(0, 3), ...violations.slice(0, 2)])}` : ''),
    );
    const crashed = gateways.filter((g) => !g.process.alive()).map((g) => `${g.name}: ${g.process.output().slice(-1500)}`);
    expect(crashed, 'no gateway crashed').toEqual([]);
    expect(byProblem).toEqual({});
    expect({ spent: ledger.spent, usage: ledger.usageCalls }).toEqual({ spent: 0, usage: 0 });
    // A server that leaves connections hanging costs each case the full 3 s wait; bounded by the case counts.
   }, LOADED_TEST_LIMIT_MS);
});
