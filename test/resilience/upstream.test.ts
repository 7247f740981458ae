import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReason } from '@retail/contract';
import { ALLOWED_UPSTREAM_HOSTS, marketplaceByCode } from '@retail/core/marketplaces/index';
import type { PageRequest } from '@retail/core/pages/types';
import { total } from '@retail/core/outcomes/metrics';
import { createManualClock } from '@retail/core/resilience/clock';
import { createResilientPageFetcher, type ResilienceOptions } from '@retail/core/resilience/compose';
import { outcomeClassOf } from '@retail/core/resilience/outcome-class';
import { createPageFetcher, type ClosablePageFetcher } from '@retail/core/upstream/index';
import { createReplayServer, type ReplayServer } from '../replay/server.js';
import { createFaultOrigin, type FaultOrigin } from './fault-origin.js';

/*
 * The real upstream client (core/src/upstream) against a fault-injecting marketplace, wrapped by the
 * resilience decorators. Back-offs are 1–4 ms; nothing asserts on elapsed time.
 */
const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const US = marketplaceByCode('US');
const PRODUCT = '/dp/B0FXTUS001';

let replay: ReplayServer;
let faults: FaultOrigin;
let raw: ClosablePageFetcher;

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [fixtures] });
  faults = await createFaultOrigin(replay.origin);
  raw = createPageFetcher({ origin: faults.origin, timeoutMs: 2_000 });
});
afterAll(async () => {
  await raw.close();
  await faults.close();
  await replay.close();
});

const fast: ResilienceOptions = {
  retry: { maxAttempts: 3, baseDelayMs: 2, maxDelayMs: 4, minAttemptMs: 1 },
  breaker: { failureThreshold: 50, openMs: 1_000 },
  limits: {},
};

const get = (c: string, signal = new AbortController().signal): PageRequest => ({ marketplace: US, path: PRODUCT, query: { c }, kind: 'product', signal });
const path = (c: string) => `${PRODUCT}?c=${c}`;
const failure = (p: Promise<unknown>) => p.then(() => expect.unreachable('expected a failure'), (e: unknown) => e);

describe('retries with the real upstream client', () => {
  it('a 503 twice, then the page: retried and served', async () => {
    faults.inject(path('503'), { kind: 'status', status: 503 }, 2);
    const fetcher = createResilientPageFetcher(raw, fast);
    const page = await fetcher.fetchPage(get('503'));
    expect(page.html).toContain('Acme Barista Pro');
    expect(faults.count(path('503'))).toBe(3);
    expect(total(fetcher.metrics.snapshot(), 'upstream_retry_total')).toBe(2);
  });

  it('a connection reset and a truncated body are connection resets, retried', async () => {
    faults.inject(path('reset'), { kind: 'reset' }, 1);
    faults.inject(path('reset'), { kind: 'truncate' }, 1);
    const fetcher = createResilientPageFetcher(raw, fast);
    expect((await fetcher.fetchPage(get('reset'))).status).toBe(200);
    expect(faults.count(path('reset'))).toBe(3);
    expect(fetcher.metrics.snapshot().counters).toMatchObject({ 'upstream_fetch_total{host="www.amazon.com",outcome="connection-reset"}': 2 });
  });

  it('a captcha is never retried (retrying deepens a block)', async () => {
    faults.inject(path('captcha'), { kind: 'captcha' });
    const error = await failure(createResilientPageFetcher(raw, fast).fetchPage(get('captcha')));
    expect(error).toMatchObject({ reason: ErrorReason.UPSTREAM_BLOCKED });
    expect(faults.count(path('captcha'))).toBe(1);
  });

  it('a redirect to another host is refused, not retried, and never fetched', async () => {
    faults.inject(path('foreign'), { kind: 'redirect', location: 'https://evil.example/dp/B0FXTUS001' });
    faults.inject(path('other-market'), { kind: 'redirect', location: 'https://www.amazon.de/dp/B0FXTUS001' });
    const fetcher = createResilientPageFetcher(raw, fast);
    for (const c of ['foreign', 'other-market']) {
      const error = await failure(fetcher.fetchPage(get(c)));
      expect(error).toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
      expect(outcomeClassOf(error)).toBe('refused');
      expect(faults.count(path(c))).toBe(1);
    }
    expect(faults.seen.some((s) => s.host.includes('evil') || s.host.endsWith('amazon.de'))).toBe(false);
  });

  it('a slow marketplace: attempts time out and retries stop at the call deadline', async () => {
    faults.inject(path('slow'), { kind: 'delay', ms: 1_000 });
    const slowRaw = createPageFetcher({ origin: faults.origin, timeoutMs: 40 });
    const fetcher = createResilientPageFetcher(slowRaw, { ...fast, retry: { ...fast.retry, maxAttempts: 10 } });
    const deadlineMs = 150;
    const signal = AbortSignal.timeout(deadlineMs);
    const error = await failure(fetcher.fetchPage({ ...get('slow', signal), deadlineAt: Date.now() + deadlineMs }));
    expect(error).toMatchObject({ reason: ErrorReason.UPSTREAM_TIMEOUT });
    // An attempt sent just before the deadline may reach the fault server a little later on a busy
    // machine: count once those have arrived, then make sure nothing more comes.
    await new Promise((r) => setTimeout(r, 50));
    const attempts = faults.count(path('slow'));
    // Each attempt takes at least its 40 ms timeout, so at most ⌈150/40⌉ fit; 10 were allowed.
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThanOrEqual(4);
    await new Promise((r) => setTimeout(r, 100));
    expect(faults.count(path('slow'))).toBe(attempts);
    await slowRaw.close();
  });
});

describe('circuit breaker with the real upstream client', () => {
  it('opens after consecutive failures, answers CIRCUIT_OPEN without a fetch, and recovers through a probe', async () => {
    const clock = createManualClock(Date.now());
    const fetcher = createResilientPageFetcher(raw, {
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      breaker: { failureThreshold: 3, openMs: 5_000 },
      limits: {},
      clock,
    });
    faults.inject(path('breaker'), { kind: 'status', status: 500 }, 4);
    for (let i = 0; i < 3; i++) expect(await failure(fetcher.fetchPage(get('breaker')))).toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    const open = await failure(fetcher.fetchPage(get('breaker')));
    expect(open).toMatchObject({ reason: ErrorReason.CIRCUIT_OPEN, retryAfterSeconds: 5 });
    expect(faults.count(path('breaker'))).toBe(3);
    await clock.advance(5_000);
    // The probe meets the fourth 500: open again.
    expect(await failure(fetcher.fetchPage(get('breaker')))).toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    expect(fetcher.breakers.states()['www.amazon.com']).toBe('open');
    await clock.advance(5_000);
    expect((await fetcher.fetchPage(get('breaker'))).status).toBe(200);
    expect(fetcher.breakers.states()['www.amazon.com']).toBe('closed');
    expect(faults.count(path('breaker'))).toBe(5);
    expect(fetcher.metrics.snapshot().circuits['www.amazon.com']).toBe('closed');
  });
});

describe('allow-list', () => {
  it('no request of this suite reached a host outside the 13 marketplaces', () => {
    expect(faults.seen.length).toBeGreaterThan(0);
    for (const s of faults.seen) expect([s.path, ALLOWED_UPSTREAM_HOSTS.has(s.host)]).toEqual([s.path, true]);
  });
});
