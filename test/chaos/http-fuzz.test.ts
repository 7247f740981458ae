/**
 * Seeded bad-input fuzz over HTTP on the three interfaces of `npm start`: REST query strings,
 * paths, methods and credential headers; GraphQL bodies; MCP JSON-RPC bodies. Every case is a
 * request the contract refuses, so the counts to hold are 0 × 5xx, 0 answers without the
 * interface's error shape, 0 successes and 0 units charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';
import { type BodyCase, graphqlCases, mcpCases, type RestCase, restCases, sampleCases } from './bad-inputs.js';
import { LOAD_BUDGET_MS, LOADED_TEST_LIMIT_MS, runBounded } from './bounded-load.js';
import { type ChaosStack, startChaosStack } from './chaos-stack.js';
import { type Answer, graphqlVerdict, mcpVerdict, restVerdict } from './fuzz-verdicts.js';
import { accountFigures, fundedAccount } from './ledger-figures.js';

const missing = redisMissing();
if (missing) console.log(`chaos tier: ${missing}`);

const SEED = 1225;
const CASES = 500;
const START_UNITS = 1_000;

async function send(url: string, init: RequestInit): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text, chargedHeader: res.headers.get('x-units-charged') };
  } catch {
    return { status: 0, body: undefined, text: '', chargedHeader: null };
  }
}

describe.skipIf(missing)('bad input over HTTP', () => {
  let redis: RedisServer;
  let stack: ChaosStack;
  let account: { accountId: string; key: string };
  beforeAll(async () => {
    redis = await startRedis();
    stack = await startChaosStack({ ledgerUrl: redis.url, coreDeadlineMs: 10_000 });
    account = await fundedAccount(stack.ledger, START_UNITS);
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  /** Runs the cases (within LOAD_BUDGET_MS; each test's limit is above it), prints the figures, and asserts no violation and no charge. */
  async function fuzz<C>(label: string, cases: C[], request: (c: C) => Promise<Answer>, verdict: (a: Answer) => string | null) {
    const before = await accountFigures(redis.url, account.accountId, START_UNITS);
    const statuses: Record<number, number> = {};
    const violations: { case: C; problem: string }[] = [];
    await runBounded(cases.length, 8, LOAD_BUDGET_MS, async (i) => {
      const answer = await request(cases[i]!);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const problem = verdict(answer);
      if (problem) violations.push({ case: cases[i]!, problem });
    });
    const after = await accountFigures(redis.url, account.accountId, START_UNITS);
    const sent = Object.values(statuses).reduce((a, b) => a + b, 0);
    console.log(
      `${label} fuzz (seed ${SEED}): ${sent} cases, statuses ${JSON.stringify(statuses)}, ${violations.length} violations, ` +
        `${after.spent - before.spent} units charged${violations.length ? `; first: ${JSON.stringify(violations.slice(0, 3)).slice(0, 1500)}` : ''}`,
    );
    expect(sent).toBe(cases.length);
    expect(violations.map((v) => v.problem)).toEqual([]);
    expect({ spent: after.spent - before.spent, usage: after.usageCalls - before.usageCalls }).toEqual({ spent: 0, usage: 0 });
  }

  it('refuses every bad REST request with the envelope, below 500, charging nothing', async () => {
    const cases = sampleCases(restCases(account.key), SEED, CASES);
    await fuzz('REST', cases, (c: RestCase) => send(`${stack.url}${c.path}`, { method: c.method, headers: c.headers }), restVerdict);
  }, LOADED_TEST_LIMIT_MS);

  it('refuses every bad GraphQL body with the envelope or field errors, below 500, charging nothing', async () => {
    const cases = sampleCases(graphqlCases(account.key), SEED, CASES);
    await fuzz('GraphQL', cases, (c: BodyCase) => send(`${stack.url}/api/graphql`, { method: 'POST', headers: c.headers, body: c.body }), graphqlVerdict);
  }, LOADED_TEST_LIMIT_MS);

  it('refuses every bad MCP message with a JSON-RPC error or an isError envelope, below 500, charging nothing', async () => {
    const cases = sampleCases(mcpCases(account.key), SEED, CASES);
    await fuzz('MCP', cases, (c: BodyCase) => send(`${stack.url}/api/mcp`, { method: 'POST', headers: c.headers, body: c.body }), mcpVerdict);
  }, LOADED_TEST_LIMIT_MS);
});
