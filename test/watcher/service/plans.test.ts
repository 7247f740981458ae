/**
 * Plan-bounded watches: the WatchService reads the caller's metering plan (a real in-memory ledger,
 * `createPlanOf` as the watcher's composition builds it) and holds creates and interval changes to
 * the plan's shortest interval and most watches, over real gRPC. A refused call stores, schedules,
 * queues and charges nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@connectrpc/connect';
import { ErrorReason } from '@retail/contract';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { REFRESH_QUEUE, refreshNowJobId } from '../../../watcher/src/refresh/index.js';
import { createPlanOf } from '../../../watcher/src/service/index.js';
import { redisMissing, startRedis } from '../../harness/redis.js';
import { as, eventually, failureOf, newAsin, startTestService, type TestService } from './fixtures.js';

/** Deployment-wide cap (MAX_WATCHES_PER_ACCOUNT) for plans that set none. */
const DEPLOYMENT_CAP = 4;

let t: TestService;
let metering: MeteringInstance;

beforeAll(async () => {
  metering = await createMetering({
    plans: {
      starter: { ratePerSecond: 5, burst: 10, minWatchIntervalSeconds: 1800, maxWatches: 2 },
      pro: { ratePerSecond: 50, burst: 100, minWatchIntervalSeconds: 900, maxWatches: 5 },
      open: { ratePerSecond: 50, burst: 100 },
    },
  });
  t = await startTestService({ maxWatchesPerAccount: DEPLOYMENT_CAP, planOf: createPlanOf(metering) });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await metering?.close();
});

const accountOn = async (plan?: string) => (await metering.admin.createAccount(plan === undefined ? {} : { plan })).accountId;
const balanceOf = async (accountId: string) => (await metering.admin.summary(accountId)).balance;
const scheduleOf = (asin: string) => t.jobs.queue(REFRESH_QUEUE).getSchedule(`US:${asin}`);

describe('the plan\'s shortest interval', () => {
  it('refuses a create below the free plan\'s minimum with INVALID_ARGUMENT on interval_seconds, naming the minimum and the plan', async () => {
    const account = await accountOn(); // new accounts are on free
    const failure = await failureOf(t.client.createWatch({ asin: newAsin(), intervalSeconds: 900 }, as(account)));
    expect(failure.code).toBe(Code.InvalidArgument);
    expect(failure.detail?.reason).toBe(ErrorReason.INVALID_ARGUMENT);
    expect(failure.detail?.fieldPath).toEqual(['interval_seconds']);
    expect(failure.message).toBe('intervalSeconds must be at least 3600 on plan free');
  });

  it('lets the free plan create at its minimum and with the default interval', async () => {
    const account = await accountOn('free');
    const hourly = (await t.client.createWatch({ asin: newAsin(), intervalSeconds: 3600 }, as(account))).retailWatch!;
    const byDefault = (await t.client.createWatch({ asin: newAsin() }, as(account))).retailWatch!;
    expect([hourly.intervalSeconds, byDefault.intervalSeconds]).toEqual([3600, 3600]);
  });

  it('lets a bigger plan create a 15-minute watch', async () => {
    const account = await accountOn('pro');
    const watch = (await t.client.createWatch({ asin: newAsin(), intervalSeconds: 900 }, as(account))).retailWatch!;
    expect(watch.intervalSeconds).toBe(900);
  });

  it('refuses an update to an interval below the minimum and leaves the watch as it was', async () => {
    const account = await accountOn('starter');
    const watch = (await t.client.createWatch({ asin: newAsin(), intervalSeconds: 3600 }, as(account))).retailWatch!;
    const failure = await failureOf(t.client.updateWatch({ id: watch.id, intervalSeconds: 900, label: 'faster' }, as(account)));
    expect(failure.code).toBe(Code.InvalidArgument);
    expect(failure.detail?.fieldPath).toEqual(['interval_seconds']);
    expect(failure.message).toBe('intervalSeconds must be at least 1800 on plan starter');
    const after = (await t.client.getWatch({ id: watch.id }, as(account))).retailWatch!;
    expect(after.intervalSeconds).toBe(3600);
    expect(after.label).not.toBe('faster'); // the whole update was refused, not only its interval
    const allowed = (await t.client.updateWatch({ id: watch.id, intervalSeconds: 1800 }, as(account))).retailWatch!;
    expect(allowed.intervalSeconds).toBe(1800);
  });

  it('keeps a watch\'s interval after a downgrade: only a change is held to the new plan', async () => {
    const account = await accountOn('pro');
    const watch = (await t.client.createWatch({ asin: newAsin(), intervalSeconds: 900 }, as(account))).retailWatch!;
    await metering.admin.setPlan(account, 'free');
    const relabelled = (await t.client.updateWatch({ id: watch.id, intervalSeconds: 900, label: 'kept' }, as(account))).retailWatch!;
    expect(relabelled).toMatchObject({ intervalSeconds: 900, label: 'kept' });
    const failure = await failureOf(t.client.updateWatch({ id: watch.id, intervalSeconds: 1200 }, as(account)));
    expect(failure.message).toBe('intervalSeconds must be at least 3600 on plan free');
  });
});

describe('the plan\'s most watches', () => {
  it('refuses the create beyond the plan\'s cap with RESOURCE_EXHAUSTED (RATE_LIMITED) naming the limit and the plan', async () => {
    const account = await accountOn('starter');
    for (let i = 0; i < 2; i++) await t.client.createWatch({ asin: newAsin() }, as(account));
    const failure = await failureOf(t.client.createWatch({ asin: newAsin() }, as(account)));
    expect(failure.code).toBe(Code.ResourceExhausted);
    expect(failure.detail?.reason).toBe(ErrorReason.RATE_LIMITED);
    expect(failure.message).toBe('the account has 2 watches, the most allowed on plan starter; delete one before creating another');
  });

  it('lets a bigger plan hold more watches, and the same account more once upgraded', async () => {
    const account = await accountOn('starter');
    for (let i = 0; i < 2; i++) await t.client.createWatch({ asin: newAsin() }, as(account));
    await metering.admin.setPlan(account, 'pro');
    for (let i = 0; i < 3; i++) await t.client.createWatch({ asin: newAsin() }, as(account));
    expect((await t.client.listWatches({}, as(account))).retailWatches!.watches).toHaveLength(5);
    expect((await failureOf(t.client.createWatch({ asin: newAsin() }, as(account)))).message).toContain('the most allowed on plan pro');
  });

  it('caps a plan without maxWatches at the deployment-wide MAX_WATCHES_PER_ACCOUNT', async () => {
    const account = await accountOn('open');
    for (let i = 0; i < DEPLOYMENT_CAP; i++) await t.client.createWatch({ asin: newAsin(), intervalSeconds: 900 }, as(account));
    const failure = await failureOf(t.client.createWatch({ asin: newAsin() }, as(account)));
    expect(failure.code).toBe(Code.ResourceExhausted);
    expect(failure.message).toContain(`the account has ${DEPLOYMENT_CAP} watches, the most allowed on plan open`);
  });
});

describe('what a refusal costs', () => {
  it('stores, schedules, queues and charges nothing when the plan refuses a create', async () => {
    const account = await accountOn('starter');
    const units = await balanceOf(account);
    const tooFast = newAsin();
    await failureOf(t.client.createWatch({ asin: tooFast, intervalSeconds: 900 }, as(account)));
    const allowed = [newAsin(), newAsin()];
    for (const asin of allowed) await t.client.createWatch({ asin }, as(account));
    const oneTooMany = newAsin();
    await failureOf(t.client.createWatch({ asin: oneTooMany }, as(account)));
    await eventually(() => allowed.every((asin) => t.refreshRuns.includes(refreshNowJobId('US', asin))));
    expect((await t.client.listWatches({}, as(account))).retailWatches!.watches).toHaveLength(2);
    for (const refused of [tooFast, oneTooMany]) {
      expect(await scheduleOf(refused)).toBeUndefined();
      expect(t.refreshRuns).not.toContain(refreshNowJobId('US', refused));
    }
    expect(await balanceOf(account)).toBe(units);
  });
});

describe('createPlanOf', () => {
  it('reads the account\'s plan and its limits; a plan left out of the table or a deleted account is the default plan', async () => {
    const planOf = createPlanOf(metering);
    expect(await planOf(await accountOn('starter'))).toEqual({ name: 'starter', minWatchIntervalSeconds: 1800, maxWatches: 2 });
    expect(await planOf(await accountOn('open'))).toEqual({ name: 'open' });
    const withoutStarter = createPlanOf({ ...metering, plans: { free: metering.plans.free!, open: metering.plans.open! } });
    expect(await withoutStarter(await accountOn('starter'))).toEqual({ name: 'free', minWatchIntervalSeconds: 3600, maxWatches: 10 });
    const gone = await accountOn('pro');
    await metering.admin.deleteAccount(gone);
    expect((await planOf(gone)).name).toBe('free');
  });
});

const noRedis = redisMissing();
describe.skipIf(noRedis !== null)(`a ledger that cannot answer${noRedis ? ` (skipped: ${noRedis})` : ''}`, () => {
  it('answers LEDGER_UNAVAILABLE (UNAVAILABLE) rather than an internal error, and creates nothing', async () => {
    // A real ledger on its own redis-server, stopped after the account exists: createPlanOf then
    // meets a real refused connection, as a watcher would when its ledger goes away.
    const redis = await startRedis();
    const ledger = await createMetering({ redisUrl: redis.url });
    const accountId = (await ledger.admin.createAccount({ plan: 'free' })).accountId;
    const down = await startTestService({ planOf: createPlanOf(ledger) });
    try {
      await redis.stop();
      const failure = await failureOf(down.client.createWatch({ asin: newAsin() }, as(accountId)));
      expect(failure.code).toBe(Code.Unavailable);
      expect(failure.detail?.reason).toBe(ErrorReason.LEDGER_UNAVAILABLE);
      expect(failure.message).not.toMatch(/ECONNREFUSED|Connection is closed/);
      expect((await down.client.listWatches({}, as(accountId))).retailWatches!.watches).toEqual([]);
    } finally {
      await down.close();
      await ledger.close();
      await redis.stop();
    }
  }, 60_000);
});
