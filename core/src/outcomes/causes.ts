import { ErrorReason, withRetryAfter } from '@retail/contract';
import { CoreError } from '../errors.js';

/**
 * Why the marketplace could not be reached, by class. The class is public (a client, and the
 * operator reading a 502, need to know whether DNS, the connection, TLS or time failed); the host,
 * address, proxy and library text behind it are not: they stay in the private cause, which is logged.
 */
export type TransportFailure = 'dns' | 'connection-refused' | 'tls' | 'connection-reset' | 'timeout' | 'network';

/** The failures that count against a host (outcome-class.ts, hostFailure): what a circuit opens on. */
export type HostFailure = TransportFailure | 'blocked' | 'error-page';

interface FailureRow {
  /** A few words, for "paused after 5 failures in a row (DNS lookup failed)" and readiness. */
  readonly label: string;
  /** The client-facing message of a failed fetch of this class (transport failures only). */
  readonly message?: string;
  readonly reason?: ErrorReason;
}

/*
 * The one table of these messages: every interface shows them as they are (the gateways pass a
 * core message through), so test/contract compares them across REST, GraphQL and MCP. "retry with
 * exponential back-off" only where a retry can help; a certificate the service rejects stays
 * rejected until someone changes it.
 */
export const FAILURES: Readonly<Record<HostFailure, FailureRow>> = {
  dns: {
    label: 'DNS lookup failed',
    reason: ErrorReason.UPSTREAM_ERROR,
    message: "the marketplace could not be reached: DNS lookup failed (the service could not resolve the marketplace's host name; it may be offline); retry with exponential back-off",
  },
  'connection-refused': {
    label: 'connection refused',
    reason: ErrorReason.UPSTREAM_ERROR,
    message: 'the marketplace could not be reached: connection refused; retry with exponential back-off',
  },
  tls: {
    label: 'TLS failure',
    reason: ErrorReason.UPSTREAM_ERROR,
    message: "the marketplace could not be reached: TLS failure (its certificate was not accepted or the secure handshake failed); retrying will not help until the service's network path is fixed",
  },
  'connection-reset': {
    label: 'connection reset',
    reason: ErrorReason.UPSTREAM_ERROR,
    message: 'the connection to the marketplace was reset before its answer was complete; retry with exponential back-off',
  },
  timeout: {
    label: 'timeout',
    reason: ErrorReason.UPSTREAM_TIMEOUT,
    message: 'the marketplace did not answer in time (timeout); retry with exponential back-off',
  },
  network: {
    label: 'network unreachable',
    reason: ErrorReason.UPSTREAM_ERROR,
    message: 'the marketplace could not be reached: network unreachable; retry with exponential back-off',
  },
  blocked: { label: 'the marketplace blocked the requests: captcha, bot check or sign-in wall' },
  'error-page': { label: 'the marketplace answered with server errors or error pages' },
};

/** The classes that count against a host (outcome-class.ts's policy says the same; its test checks it). */
export const isHostFailure = (outcome: string): outcome is HostFailure => Object.hasOwn(FAILURES, outcome);

/** Error codes of Node's net, dns and tls layers and of undici, by class (anything else: `network`). */
const CODES: ReadonlyArray<[TransportFailure, RegExp]> = [
  ['dns', /^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NODATA|EAI_NONAME)$/],
  ['connection-refused', /^ECONNREFUSED$/],
  // OpenSSL's verify codes (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED, ...) and Node's TLS errors.
  ['tls', /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|HOSTNAME_MISMATCH$|EPROTO$)/],
  ['connection-reset', /^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/],
  ['timeout', /^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/],
];

/** The class of a network error thrown by the HTTP client: its code, or a code in its cause chain. */
export function transportFailureOf(error: unknown): TransportFailure {
  for (let current = error, depth = 0; current instanceof Object && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      const match = CODES.find(([, pattern]) => pattern.test(code));
      if (match) return match[0];
    }
    current = (current as { cause?: unknown }).cause;
  }
  return 'network';
}

/** A fetch that never got a whole answer from the marketplace, with its class. */
export class UpstreamFailure extends CoreError {
  readonly failure: TransportFailure;

  constructor(failure: TransportFailure, cause: unknown, options: { readonly viaProxy?: boolean } = {}) {
    const row = FAILURES[failure];
    const message = options.viaProxy ? `${row.message!} (through the service's configured proxy)` : row.message;
    super(row.reason!, message, { cause });
    this.failure = failure;
  }
}

/** What opened a host's circuit: how many failures in a row and the class of the last one. */
export interface CircuitCause {
  readonly failures: number;
  readonly last: HostFailure;
  /** Every failure of the run was of the `last` class. */
  readonly uniform: boolean;
}

/**
 * The client-facing message of a call refused by an open circuit: what opened it and when the next
 * attempt is let through ("... paused after 5 failures in a row (DNS lookup failed); retry after 23 s",
 * the same seconds as Retry-After).
 */
export function circuitOpenMessage(cause: CircuitCause | undefined, retryAfterSeconds: number): string {
  const why = cause
    ? `after ${cause.failures} failure${cause.failures === 1 ? '' : 's'} in a row (${cause.uniform ? '' : 'the last: '}${FAILURES[cause.last].label})`
    : 'after repeated failures';
  return withRetryAfter(`requests to the marketplace are paused ${why}`, retryAfterSeconds);
}
