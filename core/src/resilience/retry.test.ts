import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { createManualClock } from './clock.js';
import { isHostFailure } from '../outcomes/causes.js';
import { OUTCOME_POLICY, outcomeClassOf } from './outcome-class.js';
import { backoffDelay, withRetries } from './retry.js';
import { failures, page, request, scriptedFetcher } from '../../test/page-doubles.js';

const options = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000, minAttemptMs: 10 };

describe('outcomeClassOf', () => {
  it('names each upstream failure class', () => {
    expect(outcomeClassOf(failures.connection())).toBe('connection-reset');
    expect(outcomeClassOf(failures.errorPage())).toBe('error-page');
    expect(outcomeClassOf(failures.timeout())).toBe('timeout');
    expect(outcomeClassOf(failures.blocked())).toBe('blocked');
    expect(outcomeClassOf(failures.notFound())).toBe('not-found');
    expect(outcomeClassOf(failures.foreignRedirect())).toBe('refused');
    expect(outcomeClassOf(new Error('boom'))).toBe('other');
  });

  it('counts exactly the classes of the failure table against a host, so a circuit can say what opened it', () => {
    for (const [outcome, policy] of Object.entries(OUTCOME_POLICY)) expect([outcome, policy.hostFailure]).toEqual([outcome, isHostFailure(outcome)]);
  });
});

describe('backoffDelay (full jitter)', () => {
  it('is uniform below min(cap, base·2^n)', () => {
    expect(backoffDelay(1, options, () => 0.999)).toBe(99);
    expect(backoffDelay(3, options, () => 0.5)).toBe(200);
    expect(backoffDelay(10, options, () => 0.999)).toBe(999);
    expect(backoffDelay(2, options, () => 0)).toBe(0);
  });
});

describe('withRetries', () => {
  it('retries retryable classes and succeeds on a later attempt', async () => {
    const clock = createManualClock();
    const inner = scriptedFetcher([failures.connection, failures.errorPage, () => page()]);
    const retried = withRetries(inner, { ...options, clock, random: () => 0.5 });
    const pending = retried.fetchPage(request());
    await clock.advance(50); // first back-off: 0.5 × 100
    await clock.advance(100); // second: 0.5 × 200
    expect((await pending).status).toBe(200);
    expect(inner.calls).toBe(3);
  });

  it('never retries not-found, blocks, refused redirects or unknown errors', async () => {
    for (const make of [failures.notFound, failures.blocked, failures.foreignRedirect, () => new Error('bug')]) {
      const inner = scriptedFetcher([make, () => page()]);
      await expect(withRetries(inner, { ...options, clock: createManualClock() }).fetchPage(request())).rejects.toThrow();
      expect(inner.calls).toBe(1);
    }
  });

  it('stops after maxAttempts and throws the last failure', async () => {
    const clock = createManualClock();
    const inner = scriptedFetcher([failures.timeout]);
    const settled = withRetries(inner, { ...options, clock, random: () => 0 }).fetchPage(request()).catch((e: unknown) => e);
    await clock.advance(0);
    expect(await settled).toMatchObject({ reason: ErrorReason.UPSTREAM_TIMEOUT });
    expect(inner.calls).toBe(3);
  });

  it('does not start a retry that cannot finish before the deadline', async () => {
    const clock = createManualClock();
    const inner = scriptedFetcher([failures.connection]);
    const deadlineAt = clock.now() + 100;
    const pending = withRetries(inner, { ...options, clock, random: () => 0.95 }).fetchPage({ ...request(), deadlineAt });
    await expect(pending).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    expect(inner.calls).toBe(1); // 95 ms back-off + 10 ms minimum attempt > 100 ms left
  });

  it('stops backing off when the call is aborted', async () => {
    const clock = createManualClock();
    const controller = new AbortController();
    const inner = scriptedFetcher([failures.connection]);
    const pending = withRetries(inner, { ...options, clock, random: () => 0.5 }).fetchPage(request('/dp/X', controller.signal));
    await Promise.resolve();
    await Promise.resolve();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    expect(inner.calls).toBe(1);
  });

  it("honours the marketplace's Retry-After as a floor, and gives up when it is longer than the back-off cap", async () => {
    const clock = createManualClock();
    const soon = Object.assign(failures.errorPage(), { retryAfterSeconds: 1 });
    const inner = scriptedFetcher([() => soon, () => page()]);
    const pending = withRetries(inner, { ...options, maxDelayMs: 5_000, clock, random: () => 0 }).fetchPage(request());
    await clock.advance(999);
    expect(inner.calls).toBe(1);
    await clock.advance(1);
    expect((await pending).status).toBe(200);
    const later = Object.assign(failures.errorPage(), { retryAfterSeconds: 120 });
    const refused = scriptedFetcher([() => later, () => page()]);
    await expect(withRetries(refused, { ...options, clock }).fetchPage(request())).rejects.toBe(later);
    expect(refused.calls).toBe(1);
  });

  it('does not retry non-idempotent fetches', async () => {
    const inner = scriptedFetcher([failures.connection, () => page()]);
    await expect(withRetries(inner, { ...options, isIdempotent: () => false }).fetchPage(request())).rejects.toThrow();
    expect(inner.calls).toBe(1);
  });
});
