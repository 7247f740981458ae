import { metrics as otel, type Meter } from '@opentelemetry/api';
import type { CircuitState } from '../resilience/circuit-breaker.js';
import type { OutcomeClass } from '../resilience/outcome-class.js';

/**
 * The upstream counters the resilience layer keeps: fetch attempts per host and outcome class,
 * retries, circuit transitions and states, cache results and cache-store failures. Each goes to the
 * OpenTelemetry metrics API (a no-op until app/ registers an SDK, like core/src/telemetry/tracing.ts)
 * and to an in-process snapshot for tests and log lines.
 */
export interface UpstreamMetrics {
  outcome(host: string, outcome: OutcomeClass): void;
  retry(host: string, outcome: OutcomeClass): void;
  circuit(host: string, to: CircuitState): void;
  cache(result: 'hit' | 'miss' | 'stale' | 'negative-hit' | 'shared'): void;
  cacheStoreError(operation: string): void;
  snapshot(): MetricsSnapshot;
}

export interface MetricsSnapshot {
  readonly counters: Readonly<Record<string, number>>;
  readonly circuits: Readonly<Record<string, CircuitState>>;
}

const CIRCUIT_LEVEL: Record<CircuitState, number> = { closed: 0, 'half-open': 1, open: 2 };

export function createUpstreamMetrics(meter: Meter = otel.getMeter('retail-core')): UpstreamMetrics {
  const counters = new Map<string, number>();
  const circuits = new Map<string, CircuitState>();
  const fetches = meter.createCounter('retail_upstream_fetches', { description: 'Upstream fetch attempts by host and outcome class' });
  const retries = meter.createCounter('retail_upstream_retries', { description: 'Upstream retries by host and the class that caused them' });
  const transitions = meter.createCounter('retail_upstream_circuit_transitions', { description: 'Circuit breaker state changes by host' });
  const cacheResults = meter.createCounter('retail_page_cache_results', { description: 'Page cache lookups by result' });
  const storeErrors = meter.createCounter('retail_page_cache_store_errors', { description: 'Page cache store failures (served without cache)' });
  meter
    .createObservableGauge('retail_upstream_circuit_state', { description: 'Circuit state per host: 0 closed, 1 half-open, 2 open' })
    .addCallback((result) => {
      for (const [host, state] of circuits) result.observe(CIRCUIT_LEVEL[state], { host });
    });
  const add = (name: string) => counters.set(name, (counters.get(name) ?? 0) + 1);
  return {
    outcome: (host, outcome) => {
      // A host shows in the circuit gauge from its first fetch (closed), not only after a transition.
      if (!circuits.has(host)) circuits.set(host, 'closed');
      fetches.add(1, { host, outcome });
      add(`upstream_fetch_total{host="${host}",outcome="${outcome}"}`);
    },
    retry: (host, outcome) => {
      retries.add(1, { host, outcome });
      add(`upstream_retry_total{host="${host}",outcome="${outcome}"}`);
    },
    circuit: (host, to) => {
      circuits.set(host, to);
      transitions.add(1, { host, to });
      add(`upstream_circuit_transition_total{host="${host}",to="${to}"}`);
    },
    cache: (result) => {
      cacheResults.add(1, { result });
      add(`page_cache_total{result="${result}"}`);
    },
    cacheStoreError: (operation) => {
      storeErrors.add(1, { operation });
      add(`page_cache_store_error_total{operation="${operation}"}`);
    },
    snapshot: () => ({ counters: Object.fromEntries(counters), circuits: Object.fromEntries(circuits) }),
  };
}

/** Sum of the counters whose name starts with `prefix` (tests and logs). */
export function total(snapshot: MetricsSnapshot, prefix: string): number {
  return Object.entries(snapshot.counters)
    .filter(([name]) => name.startsWith(prefix))
    .reduce((sum, [, n]) => sum + n, 0);
}
