import { describe, expect, it } from 'vitest';
import type { ApiAnswer } from './http.js';
import { honourRateLimits, retryAfterSeconds } from './rate-limit.js';

const answer = (status: number, retryAfter?: string): ApiAnswer => ({ status, headers: new Headers(retryAfter ? { 'retry-after': retryAfter } : {}), body: null });

/** A clock that only moves when the code under test sleeps. */
function fakeTime() {
  let now = 0;
  const slept: number[] = [];
  return { now: () => now, sleep: async (ms: number) => { slept.push(ms); now += ms; }, slept };
}

describe('honourRateLimits', () => {
  it('waits Retry-After before sending a refused call again, and every call of the run waits with it', async () => {
    const time = fakeTime();
    const replies = [answer(429, '3'), answer(200), answer(200)];
    const sent: number[] = [];
    const call = honourRateLimits(async () => {
      sent.push(time.now());
      return replies.shift()!;
    }, time);
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    expect(sent).toEqual([0, 3000, 3000]);
    expect(time.slept).toEqual([3000]);
  });

  it('gives up after maxAttempts and returns the last 429', async () => {
    const time = fakeTime();
    let calls = 0;
    const call = honourRateLimits(async () => {
      calls += 1;
      return answer(429, '1');
    }, { ...time, maxAttempts: 3 });
    expect((await call()).status).toBe(429);
    expect(calls).toBe(3);
  });

  it('does not wait longer than maxWaitSeconds, and never retries another status', async () => {
    const time = fakeTime();
    const long = honourRateLimits(async () => answer(429, '3600'), { ...time, maxWaitSeconds: 60 });
    expect((await long()).status).toBe(429);
    let calls = 0;
    const unavailable = honourRateLimits(async () => {
      calls += 1;
      return answer(503, '5');
    }, time);
    expect((await unavailable()).status).toBe(503);
    expect(calls).toBe(1);
    expect(time.slept).toEqual([]);
  });
});

describe('retryAfterSeconds', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(retryAfterSeconds(new Headers({ 'retry-after': '7' }), now)).toBe(7);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'Fri, 27 Nov 2026 10:00:05 GMT' }), now)).toBe(5);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterSeconds(new Headers(), now)).toBeUndefined();
  });
});
