/**
 * What one delivery attempt came to, for the queue (retry or not) and the attempt log.
 *
 * - delivered: any 2xx.
 * - retryable: 5xx; 408, 425 and 429 (the receiver asks to come back later); 3xx (redirects are not
 *   followed: a receiver that moved fixes its URL or its redirect, and the retries give it time);
 *   no answer at all (timeout, refused or reset connection, TLS failure, DNS failure).
 * - permanent: every other 4xx. The receiver understood the request and refused it; the same
 *   signed body will be refused again, so the queue stops and the delivery can be redelivered by
 *   hand once the receiver is fixed. 410 Gone says the endpoint no longer exists.
 *   Also permanent: a target the address rules refuse, and a secret that cannot sign.
 *
 * Standard Webhooks and Svix retry every non-2xx; this service stops early on 4xx because a day of
 * retries of a request the receiver has already rejected only fills its logs and the queue.
 */
export type DeliveryResult = 'delivered' | 'retryable' | 'permanent';

export interface DeliveryOutcome {
  readonly result: DeliveryResult;
  /** The receiver's HTTP status; absent when no response arrived. */
  readonly statusCode?: number;
  /** From the start of the attempt to the end of the response (or the failure). */
  readonly durationMs: number;
  /** One short line for the attempt log when the attempt did not deliver. */
  readonly error?: string;
}

/** 4xx statuses that mean "not now" rather than "not this". */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 425, 429]);

/** Attempt-log lines stay short: the log is listed per webhook, and receivers' texts are not ours to keep. */
export const MAX_ERROR_LENGTH = 200;

export function shortError(text: string): string {
  return text.length <= MAX_ERROR_LENGTH ? text : `${text.slice(0, MAX_ERROR_LENGTH - 1)}…`;
}

export function outcomeOfStatus(statusCode: number, durationMs: number, location?: string): DeliveryOutcome {
  if (statusCode >= 200 && statusCode < 300) return { result: 'delivered', statusCode, durationMs };
  if (statusCode >= 300 && statusCode < 400) {
    return { result: 'retryable', statusCode, durationMs, error: shortError(`HTTP ${statusCode}: redirect${location ? ` to ${location}` : ''} not followed`) };
  }
  const permanent = statusCode >= 400 && statusCode < 500 && !RETRYABLE_CLIENT_ERRORS.has(statusCode);
  return { result: permanent ? 'permanent' : 'retryable', statusCode, durationMs, error: `HTTP ${statusCode}` };
}

/** Codes of failures that no retry can fix (set by the guarded lookup and the URL check). */
export const PERMANENT_ERROR_CODES = new Set(['ERR_WEBHOOK_TARGET_REFUSED']);

const TIMEOUT_ERRORS = new Set(['TimeoutError', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** An attempt that got no response: the error's code says whether trying again can help. */
export function outcomeOfError(error: unknown, durationMs: number, timeoutMs: number): DeliveryOutcome {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  if (code && PERMANENT_ERROR_CODES.has(code)) return { result: 'permanent', durationMs, error: shortError(message ?? code) };
  if (TIMEOUT_ERRORS.has(name ?? '') || TIMEOUT_ERRORS.has(code ?? '')) {
    return { result: 'retryable', durationMs, error: `timeout: no complete answer within ${timeoutMs} ms` };
  }
  return { result: 'retryable', durationMs, error: shortError(`${code ?? name ?? 'Error'}: ${message ?? String(error)}`) };
}
