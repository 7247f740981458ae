import type { OutcomeClass } from '../resilience/outcome-class.js';
import type { CircuitState } from '../resilience/circuit-breaker.js';

/**
 * The upstream counters the resilience layer keeps: fetches per outcome class and host, retries,
 * circuit transitions, cache results and cache-store failures. Plain in-process numbers with a
 * snapshot, so an exporter (OpenTelemetry in app/, or a log line) reads them without this module
 * knowing about it.
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

export function createUpstreamMetrics(): UpstreamMetrics {
  const counters = new Map<string, number>();
  const circuits = new Map<string, CircuitState>();
  const add = (name: string) => counters.set(name, (counters.get(name) ?? 0) + 1);
  return {
    outcome: (host, outcome) => add(`upstream_fetch_total{host="${host}",outcome="${outcome}"}`),
    retry: (host, outcome) => add(`upstream_retry_total{host="${host}",outcome="${outcome}"}`),
    circuit: (host, to) => {
      circuits.set(host, to);
      add(`upstream_circuit_transition_total{host="${host}",to="${to}"}`);
    },
    cache: (result) => add(`page_cache_total{result="${result}"}`),
    cacheStoreError: (operation) => add(`page_cache_store_error_total{operation="${operation}"}`),
    snapshot: () => ({ counters: Object.fromEntries(counters), circuits: Object.fromEntries(circuits) }),
  };
}

/** Sum of the counters whose name starts with `prefix` (tests and logs). */
export function total(snapshot: MetricsSnapshot, prefix: string): number {
  return Object.entries(snapshot.counters)
    .filter(([name]) => name.startsWith(prefix))
    .reduce((sum, [, n]) => sum + n, 0);
}
