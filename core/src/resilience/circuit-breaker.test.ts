import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { createCircuitBreakers, withCircuitBreaker, type CircuitState } from './circuit-breaker.js';
import { createManualClock } from './clock.js';
import { failures, page, request, scriptedFetcher, US } from '../../test/page-doubles.js';

function setup(script: Parameters<typeof scriptedFetcher>[0]) {
  const clock = createManualClock();
  const transitions: CircuitState[] = [];
  const breakers = createCircuitBreakers({ failureThreshold: 3, openMs: 10_000, clock, onStateChange: (_h, _f, to) => transitions.push(to) });
  const inner = scriptedFetcher(script);
  return { clock, transitions, breakers, inner, fetcher: withCircuitBreaker(inner, breakers) };
}

describe('withCircuitBreaker', () => {
  it('opens after consecutive host failures and refuses at once with CIRCUIT_OPEN and Retry-After', async () => {
    const { fetcher, inner, clock, breakers } = setup([failures.errorPage]);
    for (let i = 0; i < 3; i++) await expect(fetcher.fetchPage(request())).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    expect(breakers.states()[US.host]).toBe('open');
    await clock.advance(2_500);
    const refused = fetcher.fetchPage(request());
    await expect(refused).rejects.toMatchObject({
      reason: ErrorReason.CIRCUIT_OPEN,
      retryAfterSeconds: 8,
      message: 'requests to the marketplace are paused after 3 failures in a row (the marketplace answered with server errors or error pages); retry after 8 s',
    });
    expect(inner.calls).toBe(3);
  });

  it('names the class of the failures that opened the circuit, or the last one when they differ', async () => {
    const same = setup([failures.connection]);
    for (let i = 0; i < 3; i++) await same.fetcher.fetchPage(request()).catch(() => undefined);
    await expect(same.fetcher.fetchPage(request())).rejects.toMatchObject({
      message: 'requests to the marketplace are paused after 3 failures in a row (connection reset); retry after 10 s',
    });
    const mixed = setup([failures.errorPage, failures.timeout, failures.connection]);
    for (let i = 0; i < 3; i++) await mixed.fetcher.fetchPage(request()).catch(() => undefined);
    await expect(mixed.fetcher.fetchPage(request())).rejects.toMatchObject({
      message: 'requests to the marketplace are paused after 3 failures in a row (the last: connection reset); retry after 10 s',
    });
  });

  it('half-opens after openMs, lets one probe through, and closes on its success', async () => {
    const { fetcher, clock, transitions } = setup([failures.connection, failures.connection, failures.connection, () => page()]);
    for (let i = 0; i < 3; i++) await fetcher.fetchPage(request()).catch(() => undefined);
    await clock.advance(10_000);
    const probe = fetcher.fetchPage(request());
    await expect(probe).resolves.toMatchObject({ status: 200 });
    expect(transitions).toEqual(['open', 'half-open', 'closed']);
    await expect(fetcher.fetchPage(request())).resolves.toMatchObject({ status: 200 });
  });

  it('re-opens when the probe fails', async () => {
    const { fetcher, clock, breakers } = setup([failures.timeout]);
    for (let i = 0; i < 3; i++) await fetcher.fetchPage(request()).catch(() => undefined);
    await clock.advance(10_000);
    expect(breakers.states()[US.host]).toBe('half-open');
    await expect(fetcher.fetchPage(request())).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_TIMEOUT });
    expect(breakers.states()[US.host]).toBe('open');
    // The failed probe adds to the run: four timeouts since the last success.
    await expect(fetcher.fetchPage(request())).rejects.toMatchObject({
      reason: ErrorReason.CIRCUIT_OPEN,
      retryAfterSeconds: 10,
      message: 'requests to the marketplace are paused after 4 failures in a row (timeout); retry after 10 s',
    });
  });

  it('not-found answers are host successes; a block counts as a failure', async () => {
    const { fetcher, breakers } = setup([failures.blocked, failures.blocked, failures.notFound, failures.blocked, failures.blocked]);
    for (let i = 0; i < 5; i++) await fetcher.fetchPage(request()).catch(() => undefined);
    expect(breakers.states()[US.host]).toBe('closed');
  });

  it('allows only halfOpenProbes concurrent probes', async () => {
    const clock = createManualClock();
    const breaker = createCircuitBreakers({ failureThreshold: 1, openMs: 1_000, clock }).breakerFor('h');
    breaker.record('failure', false);
    expect(breaker.admit()).toMatchObject({ admitted: false });
    await clock.advance(1_000);
    expect(breaker.admit()).toEqual({ admitted: true, probe: true });
    expect(breaker.admit()).toMatchObject({ admitted: false });
    breaker.record('neutral', true); // a cancelled probe frees its slot and decides nothing
    expect(breaker.state).toBe('half-open');
    expect(breaker.admit()).toEqual({ admitted: true, probe: true });
    breaker.record('success', true);
    expect(breaker.state).toBe('closed');
  });
});
