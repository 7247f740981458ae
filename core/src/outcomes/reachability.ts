import type { CircuitState } from '../resilience/circuit-breaker.js';
import type { OutcomeClass } from '../resilience/outcome-class.js';
import { FAILURES, isHostFailure, type HostFailure } from './causes.js';

/**
 * What the core last saw of each marketplace host: the outcome of its latest fetch attempt (a call's
 * or the start-up probe's) and its circuit. Readiness bodies, the gRPC health entry of the marketplace
 * and the start-up line report it; nothing here decides readiness (docs/resilience.md, Readiness).
 */
export type HostState = 'reachable' | 'failing' | 'unreachable';
export type MarketplaceState = 'unknown' | 'reachable' | 'degraded' | 'unreachable';

export interface HostReachability {
  readonly host: string;
  readonly state: HostState;
  /** Outcome class of the latest attempt (resilience/outcome-class.ts). */
  readonly lastOutcome: OutcomeClass;
  /** "DNS lookup failed", "answered": the latest attempt in a few words. */
  readonly summary: string;
  readonly lastAt: string;
  /** Whether the start-up probe or a call made the latest attempt. */
  readonly by: 'probe' | 'call';
  readonly circuit: CircuitState;
}

export interface MarketplaceReachability {
  readonly state: MarketplaceState;
  readonly hosts: readonly HostReachability[];
}

export interface ReachabilityTracker {
  /** One fetch attempt's outcome; outcomes that say nothing of the host (our caps, an open circuit) are ignored. */
  observe(host: string, outcome: OutcomeClass, by: 'probe' | 'call'): void;
  report(circuits?: Readonly<Record<string, CircuitState>>): MarketplaceReachability;
}

/** Outcomes that are the host's answer; the rest (our refusals, caps, circuit, unknown errors) say nothing of it. */
const ANSWERS: ReadonlySet<OutcomeClass> = new Set(['ok', 'not-found', 'unparseable', 'refused']);

const hostState = (outcome: HostFailure | 'answered', circuit: CircuitState): HostState => {
  if (outcome === 'answered') return circuit === 'open' ? 'failing' : 'reachable';
  return outcome === 'blocked' || outcome === 'error-page' ? 'failing' : 'unreachable';
};

/** `onChange` hears the overall state (circuits aside) whenever an attempt changes it: the gRPC health entry follows it. */
export function createReachabilityTracker(now: () => number = Date.now, onChange?: (state: MarketplaceState) => void): ReachabilityTracker {
  const seen = new Map<string, { outcome: OutcomeClass; at: number; by: 'probe' | 'call' }>();
  let state: MarketplaceState = 'unknown';
  const tracker: ReachabilityTracker = {
    observe(host, outcome, by) {
      if (!ANSWERS.has(outcome) && !isHostFailure(outcome)) return;
      seen.set(host, { outcome, at: now(), by });
      const next = tracker.report().state;
      if (next !== state) {
        state = next;
        onChange?.(next);
      }
    },
    report(circuits = {}) {
      const hosts = [...seen].map(([host, { outcome, at, by }]): HostReachability => {
        const circuit = circuits[host] ?? 'closed';
        const failure = isHostFailure(outcome) ? outcome : undefined;
        return {
          host,
          state: hostState(failure ?? 'answered', circuit),
          lastOutcome: outcome,
          summary: failure ? FAILURES[failure].label : 'answered',
          lastAt: new Date(at).toISOString(),
          by,
          circuit,
        };
      });
      hosts.sort((a, b) => a.host.localeCompare(b.host));
      return { state: overall(hosts), hosts };
    },
  };
  return tracker;
}

function overall(hosts: readonly HostReachability[]): MarketplaceState {
  if (hosts.length === 0) return 'unknown';
  if (hosts.every((h) => h.state === 'reachable')) return 'reachable';
  if (hosts.every((h) => h.state === 'unreachable')) return 'unreachable';
  return 'degraded';
}

/**
 * The report in one line, for a start banner or a log: "marketplace: unreachable (www.amazon.com:
 * DNS lookup failed, start-up probe 2 s ago)". `upstream` names where requests go when that is not
 * the live marketplace (the replay origin of `npm run demo`).
 */
export function describeReachability(report: MarketplaceReachability, options: { readonly upstream?: string; readonly now?: number } = {}): string {
  const where = options.upstream ? ` via ${options.upstream}` : '';
  if (report.state === 'unknown') return `marketplace${where}: not checked yet (no fetch so far)`;
  const now = options.now ?? Date.now();
  const worst = report.hosts.find((h) => h.state === 'unreachable') ?? report.hosts.find((h) => h.state === 'failing') ?? report.hosts[0]!;
  const ago = Math.max(0, Math.round((now - Date.parse(worst.lastAt)) / 1000));
  const circuit = worst.circuit === 'closed' ? '' : `, circuit ${worst.circuit}`;
  const detail = `${worst.host}: ${worst.summary}, ${worst.by === 'probe' ? 'start-up probe' : 'last call'} ${ago} s ago${circuit}`;
  const others = report.hosts.length > 1 ? `; ${report.hosts.filter((h) => h.state === 'reachable').length} of ${report.hosts.length} hosts reachable` : '';
  const consequence = report.state === 'unreachable' ? '; lookups fail until it is reachable' : '';
  return `marketplace${where}: ${report.state} (${detail}${others})${consequence}`;
}
