import { ErrorReason } from '@retail/contract';
import { isCoreError } from '../errors.js';
import { UpstreamFailure, type TransportFailure } from '../outcomes/causes.js';

/**
 * The class of a failed upstream fetch, read from the CoreError the upstream client throws (its one
 * classifier in core/src/upstream/classify.ts decides the reason; this names the finer class the
 * retry policy, the breaker and the metrics need). test/resilience runs it against the real client,
 * so a change in the client's errors fails there rather than silently changing the policy.
 */
export type OutcomeClass =
  | 'ok'
  | 'not-found'
  | 'blocked'
  | 'error-page'
  /** The transport failures (outcomes/causes.ts): dns, connection-refused, tls, connection-reset, timeout, network. */
  | TransportFailure
  | 'unparseable'
  | 'refused'
  | 'circuit-open'
  | 'rate-capped'
  | 'other';

export interface OutcomePolicy {
  /** Worth another attempt of the same idempotent GET (after back-off, within the deadline). */
  readonly retryable: boolean;
  /** Says the host is unhealthy: counts towards opening its circuit. */
  readonly hostFailure: boolean;
}

/*
 * Why: timeouts, resets, refused connections, failed DNS lookups (resolvers flap) and 5xx/error
 * pages are often transient, so a retry may succeed. A certificate the service rejects is not: a TLS
 * failure is not retried, but counts against the host like the others. A block (captcha, WAF) is the
 * marketplace asking us to slow down: retrying at once deepens it, so it is not retried but does
 * count towards the breaker, which then pauses the host. Not-found and unparseable pages are answers,
 * not host trouble; refused redirects and our own caps are never retried.
 */
export const OUTCOME_POLICY: Readonly<Record<OutcomeClass, OutcomePolicy>> = {
  ok: { retryable: false, hostFailure: false },
  'not-found': { retryable: false, hostFailure: false },
  blocked: { retryable: false, hostFailure: true },
  'error-page': { retryable: true, hostFailure: true },
  dns: { retryable: true, hostFailure: true },
  'connection-refused': { retryable: true, hostFailure: true },
  tls: { retryable: false, hostFailure: true },
  'connection-reset': { retryable: true, hostFailure: true },
  timeout: { retryable: true, hostFailure: true },
  network: { retryable: true, hostFailure: true },
  unparseable: { retryable: false, hostFailure: false },
  refused: { retryable: false, hostFailure: false },
  'circuit-open': { retryable: false, hostFailure: false },
  'rate-capped': { retryable: false, hostFailure: false },
  other: { retryable: false, hostFailure: false },
};

/** Cause of the UPSTREAM_TIMEOUT thrown when the deadline passes while queued at a host cap. */
export const HOST_CAP_CAUSE_PREFIX = 'host cap:';
const HOST_CAP_CAUSE = /^host cap:/;

/** Start of the private cause of every unparseable-page error (operations/fetch-parse.ts unparseable). */
export const UNPARSEABLE_CAUSE_PREFIX = 'unparseable page:';

const causeText = (error: Error): string => (error.cause instanceof Error ? error.cause.message : String(error.cause ?? ''));

export function outcomeClassOf(error: unknown): OutcomeClass {
  // The upstream client names the class of a failure to reach the marketplace when it throws it.
  if (error instanceof UpstreamFailure) return error.failure;
  if (!isCoreError(error)) return 'other';
  switch (error.reason) {
    case ErrorReason.NOT_FOUND:
      return 'not-found';
    case ErrorReason.UPSTREAM_BLOCKED:
      return 'blocked';
    case ErrorReason.UPSTREAM_TIMEOUT:
      return HOST_CAP_CAUSE.test(causeText(error)) ? 'rate-capped' : 'timeout';
    case ErrorReason.CIRCUIT_OPEN:
      return 'circuit-open';
    case ErrorReason.INTERNAL:
      return 'refused';
    case ErrorReason.UPSTREAM_ERROR: {
      const cause = causeText(error);
      if (cause.startsWith(UNPARSEABLE_CAUSE_PREFIX)) return 'unparseable';
      if (/foreign|redirects|body over/i.test(cause)) return 'refused';
      if (/HTTP \d|error page|empty body/i.test(cause)) return 'error-page';
      return 'unparseable';
    }
    default:
      return 'other';
  }
}

export const policyOf = (error: unknown): OutcomePolicy => OUTCOME_POLICY[outcomeClassOf(error)];
