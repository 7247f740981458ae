/**
 * A REST gateway process killed with SIGKILL mid-load, the core and the gateway running as separate
 * processes on one Redis ledger: no unit is charged without a 200, the units the dead gateway held
 * stay held (not spent) and come back to the balance once their holds expire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';
import { freePort } from '../harness/ports.js';
import type { ReplayServer } from '../replay/server.js';
import { tally } from './billing-tally.js';
import { runBounded } from './bounded-load.js';
import { CHAOS_CORE_ENV, startReplayAndProxy } from './chaos-stack.js';
import { type FaultProxy, seededFaultPlan } from './fault-proxy.js';
import { FIXTURE_CALLS } from './fixture-calls.js';
import { callRest, type CallOutcome } from './interface-calls.js';
import { accountFigures, fundedAccount } from './ledger-figures.js';
import { launchNode, type NodeProcess } from './node-process.js';

const missing = redisMissing();
if (missing) console.log(`chaos tier: ${missing}`);

const SERVICE_TOKEN = 'chaos-tier-service-token';
/** Half the upstream requests take 1.5 s (inside the gateway's 3 s deadline), so calls are in flight when the gateway dies. */
const SLOW_MS = 1_500;
const CORE_DEADLINE_MS = 3_000;
/** Longer than the deadline, as the metering library requires, and short enough to wait for. */
const HOLD_TTL_MS = 4_000;
const START_UNITS = 1_000;

describe.skipIf(missing)('a gateway killed mid-load', () => {
  let redis: RedisServer;
  let replay: ReplayServer;
  let proxy: FaultProxy;
  let core: NodeProcess | undefined;
  let gateway: NodeProcess | undefined;
  let ledger: MeteringInstance;
  let gatewayUrl: string;

  beforeAll(async () => {
    redis = await startRedis();
    ({ replay, proxy } = await startReplayAndProxy(seededFaultPlan(7, 0.5, ['slow']), SLOW_MS));
    const started = await launchNode({
      entry: 'core/src/main.ts',
      env: { ...CHAOS_CORE_ENV, GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', SERVICE_TOKEN, MARKETPLACE_ORIGIN: proxy.origin },
      ready: /listening on (127\.0\.0\.1:\d+)/,
    });
    core = started.process;
    const port = await freePort();
    gateway = (
      await launchNode({
        entry: 'gateways/rest/src/main.ts',
        env: {
          HOST: '127.0.0.1',
          PORT: String(port),
          CORE_ADDRESS: started.match,
          SERVICE_TOKEN,
          CORE_DEADLINE_MS: String(CORE_DEADLINE_MS),
          LEDGER_REDIS_URL: redis.url,
          LEDGER_HOLD_TTL_MS: String(HOLD_TTL_MS),
        },
        ready: /rest gateway listening/,
      })
    ).process;
    gatewayUrl = `http://127.0.0.1:${port}`;
    ledger = await createMetering({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await ledger?.close();
    await gateway?.stop();
    await core?.stop();
    await proxy?.close();
    await replay?.close();
    await redis?.stop();
  });

  it('charges nothing without a 200 and returns the dead gateway’s holds after they expire', async () => {
    const { accountId, key } = await fundedAccount(ledger, START_UNITS);
    let killed = false;
    const outcomes: CallOutcome[] = [];
    // No new calls once the gateway is dead: they would only count refused connections.
    const load = runBounded(
      400,
      16,
      20_000,
      async (i) => {
        const outcome = await callRest(gatewayUrl, key, FIXTURE_CALLS[i % FIXTURE_CALLS.length]!);
        outcomes.push(outcome);
        return outcome;
      },
      () => killed,
    );
    // Kill once the load is well under way and calls are provably past admission (waiting upstream).
    const killBy = Date.now() + 15_000;
    while (Date.now() < killBy && !(outcomes.filter((o) => o.status === 200).length >= 30 && proxy.delayedInFlight() >= 4)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    // A kill between a call's settle and its response would charge a call whose answer never left:
    // a window of microseconds that a busy machine widens. The property under test is that calls
    // cut off mid-flight are not charged, so the upstream stops answering, the calls already past it
    // finish, and the gateway dies with every remaining call waiting upstream.
    killed = true;
    proxy.holdAll();
    for (let seen = -1; seen !== outcomes.length; ) {
      seen = outcomes.length;
      await new Promise((r) => setTimeout(r, 300));
    }
    const killedWithDelayedInFlight = proxy.delayedInFlight();
    await gateway!.kill();
    await load;

    const t = tally(outcomes);
    const afterKill = await accountFigures(redis.url, accountId, START_UNITS);
    await new Promise((r) => setTimeout(r, HOLD_TTL_MS + 500));
    // Any script touching the account returns its expired holds; the summary is one.
    await ledger.admin.summary(accountId);
    const afterExpiry = await accountFigures(redis.url, accountId, START_UNITS);

    console.log(
      `gateway kill: ${t.calls} calls, ${t.successes} successes (200), ${t.calls - t.successes} without a 200 ` +
        `(${t.statuses[0] ?? 0} never answered), ${t.headerUnits} units in headers, ${proxy.totalInjected()} slow upstream answers, ` +
        `${killedWithDelayedInFlight} calls waiting upstream at the kill; after the kill: spent ${afterKill.spent}, held ${afterKill.held} in ${afterKill.holds} holds; ` +
        `after expiry: spent ${afterExpiry.spent}, held ${afterExpiry.held}, balance ${afterExpiry.balance}`,
    );
    expect(killedWithDelayedInFlight, 'calls were in flight when the gateway died').toBeGreaterThanOrEqual(4);
    expect(t.calls - t.successes, 'some calls lost their answer').toBeGreaterThan(0);
    expect({ spent: afterKill.spent, usage: afterKill.usageCalls, headers: t.headerUnits }).toEqual({ spent: t.successes, usage: t.successes, headers: t.successes });
    expect(afterKill.held, 'the dead gateway’s holds are still held before they expire').toBeGreaterThan(0);
    expect({ spent: afterExpiry.spent, held: afterExpiry.held, balance: afterExpiry.balance }).toEqual({ spent: t.successes, held: 0, balance: START_UNITS - t.successes });
    expect(core!.alive(), 'the core survives its gateway').toBe(true);
  });
});
