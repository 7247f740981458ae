import { describe, expect, it } from 'vitest';
import { createMetering } from './index.js';
import { DEFAULT_PLANS, DEVELOPMENT_PLAN, parsePlans, rateLimitHeaders, rateLimitState, refill, retryAfterSeconds } from './plans.js';

const free = DEFAULT_PLANS.free!;

describe('token bucket and RateLimit headers', () => {
  it('refills at the sustained rate up to the burst', () => {
    expect(refill(undefined, free, 0)).toBe(10);
    expect(refill({ tokens: 0, updatedAt: 1000 }, free, 1400)).toBeCloseTo(2);
    expect(refill({ tokens: 0, updatedAt: 1000 }, free, 999_999)).toBe(10);
    expect(refill({ tokens: 3, updatedAt: 1000 }, free, 500)).toBe(3); // a clock behind never drains
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(retryAfterSeconds(free, 0.99)).toBe(1);
    expect(retryAfterSeconds({ ratePerSecond: 0.1, burst: 1 }, 0.5)).toBe(5);
  });

  it('waits for a batch\'s whole cost, or a full bucket when the cost is above the burst; a debt counts', () => {
    expect(retryAfterSeconds(free, 4, 6)).toBe(1); // 2 tokens at 5/s
    expect(retryAfterSeconds(free, 0, 100)).toBe(2); // a full bucket (10) at 5/s, not 100
    expect(retryAfterSeconds(free, -15, 1)).toBe(4); // 16 tokens at 5/s
    expect(rateLimitState('free', free, -15)).toMatchObject({ remaining: 0, resetSeconds: 5 });
  });

  it('renders draft Structured Field headers: quoted policy name, integer q/w/r/t, r ≤ q', () => {
    const headers = rateLimitHeaders(rateLimitState('free', free, 8.6));
    expect(headers).toEqual({ 'RateLimit-Policy': '"free";q=10;w=2', 'RateLimit': '"free";r=8;t=1' });
    const unlimited = rateLimitHeaders(rateLimitState('unlimited', DEFAULT_PLANS.unlimited!, -1));
    const q = Number(/q=(\d+)/.exec(unlimited['RateLimit-Policy']!)![1]);
    const r = Number(/r=(\d+)/.exec(unlimited['RateLimit']!)![1]);
    expect(q).toBeLessThanOrEqual(999_999_999_999_999);
    expect(r).toBeLessThanOrEqual(q);
    expect(rateLimitHeaders({ policyName: 'we"ird', limit: 5, windowSeconds: 0.5, remaining: 7, resetSeconds: 0 })).toEqual({
      'RateLimit-Policy': '"we\\"ird";q=5;w=1',
      'RateLimit': '"we\\"ird";r=5;t=0',
    });
  });
});

describe('plan configuration', () => {
  it('parses finite and unlimited plans and refuses ones the limiter cannot run', () => {
    expect(parsePlans('{"pro":{"ratePerSecond":50,"burst":100},"internal":"unlimited"}')).toEqual({
      pro: { ratePerSecond: 50, burst: 100 },
      internal: { ratePerSecond: Infinity, burst: Infinity },
    });
    expect(() => parsePlans('{"zero":{"ratePerSecond":0,"burst":5}}')).toThrow(/ratePerSecond/);
    expect(() => parsePlans('{"bad name":"unlimited"}')).toThrow(/plan name/);
    expect(() => parsePlans('{"pro":5}')).toThrow(/expected/);
  });

  it('reads optional watch limits beside the rate limit, also on an unlimited plan', () => {
    expect(parsePlans('{"pro":{"ratePerSecond":50,"burst":100,"minWatchIntervalSeconds":900,"maxWatches":500}}')).toEqual({
      pro: { ratePerSecond: 50, burst: 100, minWatchIntervalSeconds: 900, maxWatches: 500 },
    });
    const internal = parsePlans('{"internal":{"ratePerSecond":"unlimited","burst":"unlimited","maxWatches":50}}').internal!;
    expect(internal).toEqual({ ratePerSecond: Infinity, burst: Infinity, maxWatches: 50 });
    expect(internal.minWatchIntervalSeconds).toBeUndefined();
  });

  it('refuses watch limits outside the watch request bounds, naming the plan and the field', () => {
    expect(() => parsePlans('{"pro":{"ratePerSecond":5,"burst":10,"minWatchIntervalSeconds":60}}')).toThrow('plan pro: minWatchIntervalSeconds must be a whole number from 900 to 604800, got 60');
    expect(() => parsePlans('{"pro":{"ratePerSecond":5,"burst":10,"minWatchIntervalSeconds":700000}}')).toThrow(/minWatchIntervalSeconds/);
    expect(() => parsePlans('{"pro":{"ratePerSecond":5,"burst":10,"minWatchIntervalSeconds":"hourly"}}')).toThrow(/minWatchIntervalSeconds/);
    expect(() => parsePlans('{"pro":{"ratePerSecond":5,"burst":10,"maxWatches":0}}')).toThrow('plan pro: maxWatches must be a whole number from 1 to 1000000, got 0');
    expect(() => parsePlans('{"pro":{"ratePerSecond":5,"burst":10,"maxWatches":2.5}}')).toThrow(/maxWatches/);
  });

  it('refuses a misspelt field and a plan without a rate rather than reading them as defaults', () => {
    expect(() => parsePlans('{"pro":{"ratePerSecond":5,"burst":10,"maxWatch":3}}')).toThrow(/plan pro: unknown field maxWatch/);
    expect(() => parsePlans('{"pro":{"burst":10}}')).toThrow(/ratePerSecond and burst must be numbers/);
  });

  it('ships a free plan that narrows watches and an unlimited one that keeps the defaults', () => {
    expect(DEFAULT_PLANS.free).toMatchObject({ minWatchIntervalSeconds: 3600, maxWatches: 10 });
    expect(DEFAULT_PLANS.unlimited!.minWatchIntervalSeconds).toBeUndefined();
    expect(DEFAULT_PLANS.unlimited!.maxWatches).toBeUndefined();
  });

  it('ships a generous development plan that new accounts never get', async () => {
    expect(DEFAULT_PLANS[DEVELOPMENT_PLAN]).toEqual({ ratePerSecond: 100, burst: 200 });
    expect(rateLimitHeaders(rateLimitState(DEVELOPMENT_PLAN, DEFAULT_PLANS[DEVELOPMENT_PLAN]!, 200))['RateLimit-Policy']).toBe('"development";q=200;w=2');
    await expect(createMetering({ defaultPlan: DEVELOPMENT_PLAN })).rejects.toThrow('the development plan is for the key npm start prints; it cannot be the plan of new accounts');
    const metering = await createMetering();
    try {
      expect(metering.defaultPlan).toBe('free');
      expect(metering.plans[DEVELOPMENT_PLAN]).toBeDefined();
    } finally {
      await metering.close();
    }
  });
});
