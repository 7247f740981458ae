import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { total } from '../outcomes/metrics.js';
import { createManualClock } from './clock.js';
import { createResilientPageFetcher } from './compose.js';
import { failures, page, request, scriptedFetcher } from '../../test/page-doubles.js';

describe('createResilientPageFetcher', () => {
  it('a circuit that opens during a retry loop stops it with CIRCUIT_OPEN', async () => {
    const clock = createManualClock();
    const inner = scriptedFetcher([failures.connection]);
    const fetcher = createResilientPageFetcher(inner, {
      retry: { maxAttempts: 5, baseDelayMs: 10, maxDelayMs: 10, minAttemptMs: 0 },
      breaker: { failureThreshold: 2, openMs: 60_000 },
      limits: {},
      clock,
    });
    const settled = fetcher.fetchPage(request()).catch((e: unknown) => e);
    await clock.advance(100);
    expect(await settled).toMatchObject({ reason: ErrorReason.CIRCUIT_OPEN, retryAfterSeconds: 60 });
    expect(inner.calls).toBe(2);
    const snapshot = fetcher.metrics.snapshot();
    expect(total(snapshot, 'upstream_fetch_total')).toBe(2);
    expect(total(snapshot, 'upstream_retry_total')).toBe(2); // the second retry meets the open circuit
    expect(snapshot.circuits['www.amazon.com']).toBe('open');
  });

  it('host caps sit inside the breaker: a rate-capped wait never counts as a host failure', async () => {
    const clock = createManualClock();
    const inner = scriptedFetcher([() => page()]);
    const fetcher = createResilientPageFetcher(inner, {
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      breaker: { failureThreshold: 1, openMs: 60_000 },
      limits: { ratePerSecond: 1, burst: 1 },
      clock,
    });
    await fetcher.fetchPage(request());
    const c = new AbortController();
    const queued = fetcher.fetchPage(request('/dp/B000000001', c.signal)).catch((e: unknown) => e);
    c.abort();
    expect(await queued).toMatchObject({ reason: ErrorReason.UPSTREAM_TIMEOUT });
    expect(fetcher.breakers.states()['www.amazon.com']).toBe('closed');
  });
});
