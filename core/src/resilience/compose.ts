import type { FetchedPage, PageFetcher, PageRequest } from '../pages/types.js';
import { createUpstreamMetrics, type UpstreamMetrics } from '../outcomes/metrics.js';
import { createReachabilityTracker, type MarketplaceReachability, type MarketplaceState, type ReachabilityTracker } from '../outcomes/reachability.js';
import type { Logger } from 'pino';
import { createCircuitBreakers, withCircuitBreaker, type CircuitBreakerOptions, type CircuitBreakers, type CircuitState } from './circuit-breaker.js';
import type { Clock } from './clock.js';
import { withHostLimits, type HostLimitOptions } from './host-limits.js';
import { outcomeClassOf, type OutcomeClass } from './outcome-class.js';
import { withRetries, type RetryOptions } from './retry.js';
import { hostOf } from './types.js';

export interface ResilienceOptions {
  readonly retry: Omit<RetryOptions, 'clock' | 'onRetry'>;
  readonly breaker: Omit<CircuitBreakerOptions, 'clock' | 'onStateChange'>;
  readonly limits: Omit<HostLimitOptions, 'clock'>;
  readonly clock?: Clock;
  readonly metrics?: UpstreamMetrics;
  /** Circuit changes are logged (warn when a host's circuit opens, info when it closes). */
  readonly logger?: Pick<Logger, 'warn' | 'info'>;
  /** Hears the marketplace's overall reachability when it changes (outcomes/reachability.ts). */
  readonly onReachabilityChange?: (state: MarketplaceState) => void;
}

/** The defaults docs/resilience.md lists (and config.ts overrides). */
export const DEFAULT_RESILIENCE: Omit<ResilienceOptions, 'clock' | 'metrics'> = {
  retry: { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 2_000, minAttemptMs: 250 },
  breaker: { failureThreshold: 5, openMs: 30_000, halfOpenProbes: 1 },
  limits: { concurrency: 8, ratePerSecond: 5, burst: 10 },
};

/** Counts every attempt that reaches the upstream client, by host and outcome class, and keeps each host's latest. */
export function withOutcomeMetrics(inner: PageFetcher, metrics: UpstreamMetrics, reachability?: ReachabilityTracker): PageFetcher {
  const record = (request: PageRequest, outcome: OutcomeClass) => {
    metrics.outcome(hostOf(request), outcome);
    reachability?.observe(hostOf(request), outcome, 'call');
  };
  return {
    async fetchPage(request: PageRequest): Promise<FetchedPage> {
      try {
        const page = await inner.fetchPage(request);
        record(request, 'ok');
        return page;
      } catch (error) {
        record(request, outcomeClassOf(error));
        throw error;
      }
    },
  };
}

export interface ResilientPageFetcher extends PageFetcher {
  readonly breakers: CircuitBreakers;
  readonly metrics: UpstreamMetrics;
  /** Each host's latest outcome (the start-up probe records there too). */
  readonly reachability: ReachabilityTracker;
  /** The reachability report with the circuits' current states. */
  marketplace(): MarketplaceReachability;
}

/**
 * The upstream client with retries outermost (each attempt asks the breaker again, so an opening
 * circuit stops a retry loop), then the per-host breaker, then the host caps (a queued request holds
 * no probe), then the metered raw fetch.
 */
export function createResilientPageFetcher(inner: PageFetcher, options: ResilienceOptions = DEFAULT_RESILIENCE): ResilientPageFetcher {
  const metrics = options.metrics ?? createUpstreamMetrics();
  const clock = options.clock;
  const onStateChange = (host: string, from: CircuitState, to: CircuitState) => {
    metrics.circuit(host, to);
    if (to === 'open') options.logger?.warn({ host, from, openMs: options.breaker.openMs }, 'upstream circuit open: requests to this host are refused for a while');
    else options.logger?.info({ host, from, to }, 'upstream circuit state changed');
  };
  const breakers = createCircuitBreakers({ ...options.breaker, ...(clock ? { clock } : {}), onStateChange });
  const reachability = createReachabilityTracker(clock ? () => clock.now() : Date.now, options.onReachabilityChange);
  const limited = withHostLimits(withOutcomeMetrics(inner, metrics, reachability), { ...options.limits, ...(clock ? { clock } : {}) });
  // failureThreshold 0: no breaker (replay and demo defaults, resilience/config.ts).
  const guarded = options.breaker.failureThreshold > 0 ? withCircuitBreaker(limited, breakers) : limited;
  const retried = withRetries(guarded, {
    ...options.retry,
    ...(clock ? { clock } : {}),
    onRetry: ({ request, outcome }) => metrics.retry(hostOf(request), outcome),
  });
  return { fetchPage: (request) => retried.fetchPage(request), breakers, metrics, reachability, marketplace: () => reachability.report(breakers.states()) };
}
