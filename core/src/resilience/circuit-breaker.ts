import { ErrorReason } from '@retail/contract';
import { CoreError } from '../errors.js';
import { circuitOpenMessage, isHostFailure, type CircuitCause, type HostFailure } from '../outcomes/causes.js';
import type { FetchedPage, PageFetcher, PageRequest } from '../pages/types.js';
import { systemClock, type Clock } from './clock.js';
import { outcomeClassOf, OUTCOME_POLICY, type OutcomeClass } from './outcome-class.js';
import { hostOf } from './types.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive host failures (outcome-class.ts, hostFailure) that open the circuit. */
  readonly failureThreshold: number;
  /** How long an open circuit refuses before letting probes through. */
  readonly openMs: number;
  /** Probes allowed at once while half-open; one success closes, one failure re-opens. */
  readonly halfOpenProbes?: number;
  readonly clock?: Clock;
  readonly onStateChange?: (host: string, from: CircuitState, to: CircuitState) => void;
}

export type Admission =
  | { readonly admitted: true; readonly probe: boolean }
  | { readonly admitted: false; readonly retryAfterMs: number; readonly openedBy: CircuitCause | undefined };

export interface CircuitBreaker {
  readonly state: CircuitState;
  /** May a request go out now? A probe must be followed by exactly one `record`. */
  admit(): Admission;
  /**
   * `neutral`: the host said nothing (client cancel, our own cap): only frees a probe slot. A
   * failure names its class, so a refusal can say what opened the circuit.
   */
  record(result: 'success' | 'failure' | 'neutral', wasProbe: boolean, failure?: HostFailure): void;
  /** What opened the circuit (the failures in a row before it opened); undefined while it never has. */
  readonly openedBy: CircuitCause | undefined;
  /** When the open circuit lets the next attempt through (epoch ms); undefined unless open. */
  readonly reopensAt: number | undefined;
}

/** One host's breaker: closed → (threshold failures) open → (openMs) half-open → closed or open. */
export function createCircuitBreaker(host: string, options: CircuitBreakerOptions): CircuitBreaker {
  const clock = options.clock ?? systemClock;
  const maxProbes = options.halfOpenProbes ?? 1;
  let state: CircuitState = 'closed';
  let failures = 0;
  /** The failures since the last success: how many, the last class, whether every one was of that class. */
  let run: CircuitCause | undefined;
  let openedBy: CircuitCause | undefined;
  let openedAt = 0;
  let probes = 0;
  const moveTo = (next: CircuitState) => {
    if (next === state) return;
    const from = state;
    state = next;
    options.onStateChange?.(host, from, next);
  };
  const open = () => {
    openedBy = run;
    openedAt = clock.now();
    probes = 0;
    moveTo('open');
  };
  return {
    get state() {
      if (state === 'open' && clock.now() - openedAt >= options.openMs) moveTo('half-open');
      return state;
    },
    admit() {
      const current = this.state;
      if (current === 'closed') return { admitted: true, probe: false };
      if (current === 'half-open' && probes < maxProbes) {
        probes++;
        return { admitted: true, probe: true };
      }
      // Open, or half-open with its probes out: come back when the open period (or a probe) ends.
      const retryAfterMs = current === 'open' ? openedAt + options.openMs - clock.now() : Math.min(options.openMs, 1000);
      return { admitted: false, retryAfterMs: Math.max(1, retryAfterMs), openedBy };
    },
    get openedBy() {
      return openedBy;
    },
    get reopensAt() {
      return this.state === 'open' ? openedAt + options.openMs : undefined;
    },
    record(result, wasProbe, failure) {
      if (wasProbe) probes = Math.max(0, probes - 1);
      if (result === 'neutral') return;
      if (result === 'success') {
        failures = 0;
        run = undefined;
        if (wasProbe || state === 'half-open') moveTo('closed');
        return;
      }
      failures++;
      // The run counts every failure since the last success (a failed probe adds to the one that opened the circuit).
      if (failure) run = { failures: (run?.failures ?? 0) + 1, last: failure, uniform: run === undefined || (run.uniform && run.last === failure) };
      if (wasProbe || state === 'half-open' || failures >= options.failureThreshold) {
        failures = 0;
        open();
      }
    },
  };
}

export interface CircuitBreakers {
  breakerFor(host: string): CircuitBreaker;
  /** Every host's state (for metrics and readiness detail). */
  states(): Record<string, CircuitState>;
}

export function createCircuitBreakers(options: CircuitBreakerOptions): CircuitBreakers {
  const breakers = new Map<string, CircuitBreaker>();
  return {
    breakerFor(host) {
      let breaker = breakers.get(host);
      if (!breaker) {
        breaker = createCircuitBreaker(host, options);
        breakers.set(host, breaker);
      }
      return breaker;
    },
    states: () => Object.fromEntries([...breakers].map(([host, b]) => [host, b.state])),
  };
}

const NEUTRAL: ReadonlySet<OutcomeClass> = new Set(['other', 'rate-capped', 'circuit-open']);

function breakerResult(outcome: OutcomeClass): 'success' | 'failure' | 'neutral' {
  if (NEUTRAL.has(outcome)) return 'neutral';
  return OUTCOME_POLICY[outcome].hostFailure ? 'failure' : 'success';
}

/** Refuses at once with CIRCUIT_OPEN (503, Retry-After) while a host's circuit is open. */
export function withCircuitBreaker(inner: PageFetcher, breakers: CircuitBreakers): PageFetcher {
  return {
    async fetchPage(request: PageRequest): Promise<FetchedPage> {
      const host = hostOf(request);
      const breaker = breakers.breakerFor(host);
      const admission = breaker.admit();
      if (!admission.admitted) {
        const retryAfterSeconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
        throw new CoreError(ErrorReason.CIRCUIT_OPEN, circuitOpenMessage(admission.openedBy, retryAfterSeconds), {
          retryAfterSeconds,
          cause: new Error(`circuit for ${host} is open; retry in ${retryAfterSeconds}s`),
        });
      }
      try {
        const page = await inner.fetchPage(request);
        breaker.record('success', admission.probe);
        return page;
      } catch (error) {
        const outcome = outcomeClassOf(error);
        breaker.record(breakerResult(outcome), admission.probe, isHostFailure(outcome) ? outcome : undefined);
        throw error;
      }
    },
  };
}
