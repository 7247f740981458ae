import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, parsePlans, rateLimitHeaders, rateLimitState, refill, retryAfterSeconds } from './plans.js';

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
});
