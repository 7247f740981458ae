import { describe, expect, it } from 'vitest';
import { createReachabilityTracker, describeReachability, type MarketplaceState } from './reachability.js';

const T0 = Date.parse('2026-05-01T10:00:00Z');

describe('the reachability tracker', () => {
  it('knows nothing before the first attempt', () => {
    const tracker = createReachabilityTracker(() => T0);
    expect(tracker.report()).toEqual({ state: 'unknown', hosts: [] });
    expect(describeReachability(tracker.report())).toBe('marketplace: not checked yet (no fetch so far)');
  });

  it('keeps each host latest outcome: a transport failure is unreachable, an answer (even a 404) reachable', () => {
    let now = T0;
    const tracker = createReachabilityTracker(() => now);
    tracker.observe('www.amazon.com', 'dns', 'probe');
    expect(tracker.report()).toMatchObject({
      state: 'unreachable',
      hosts: [{ host: 'www.amazon.com', state: 'unreachable', lastOutcome: 'dns', summary: 'DNS lookup failed', by: 'probe', lastAt: '2026-05-01T10:00:00.000Z', circuit: 'closed' }],
    });
    now += 5_000;
    expect(describeReachability(tracker.report(), { now })).toBe(
      'marketplace: unreachable (www.amazon.com: DNS lookup failed, start-up probe 5 s ago); lookups fail until it is reachable',
    );
    tracker.observe('www.amazon.com', 'not-found', 'call');
    expect(tracker.report()).toMatchObject({ state: 'reachable', hosts: [{ state: 'reachable', summary: 'answered', by: 'call' }] });
  });

  it('is degraded when hosts differ or one is blocked, and shows the worst host with its circuit', () => {
    const tracker = createReachabilityTracker(() => T0);
    tracker.observe('www.amazon.com', 'ok', 'call');
    tracker.observe('www.amazon.de', 'connection-refused', 'call');
    const report = tracker.report({ 'www.amazon.de': 'open' });
    expect(report.state).toBe('degraded');
    expect(describeReachability(report, { now: T0, upstream: 'http://127.0.0.1:9000' })).toBe(
      'marketplace via http://127.0.0.1:9000: degraded (www.amazon.de: connection refused, last call 0 s ago, circuit open; 1 of 2 hosts reachable)',
    );
    const blocked = createReachabilityTracker(() => T0);
    blocked.observe('www.amazon.com', 'blocked', 'call');
    expect(blocked.report().hosts[0]!.state).toBe('failing');
    expect(blocked.report().state).toBe('degraded');
  });

  it('ignores outcomes that say nothing of the host, and tells listeners only of changes', () => {
    const states: MarketplaceState[] = [];
    const tracker = createReachabilityTracker(() => T0, (state) => states.push(state));
    for (const outcome of ['other', 'rate-capped', 'circuit-open'] as const) tracker.observe('www.amazon.com', outcome, 'call');
    expect(tracker.report().state).toBe('unknown');
    tracker.observe('www.amazon.com', 'timeout', 'call');
    tracker.observe('www.amazon.com', 'tls', 'call');
    tracker.observe('www.amazon.com', 'ok', 'call');
    expect(states).toEqual(['unreachable', 'reachable']);
  });
});
