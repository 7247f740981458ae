/**
 * What one call (or one batch item) came to, as every interface needs it: a success with its `data`,
 * or a failure with its status and envelope entries. Kept apart from the pipeline so the renderers
 * of results (batch entries, job results) can build them without importing the whole pipeline.
 */
import type { ErrorReason, WireObject } from '@retail/contract';
import type { ResponseInfo } from './core-client.js';

/** One entry of the error envelope. */
export interface EnvelopeError {
  readonly code: number;
  readonly message: string;
  readonly path?: string[];
}

/** A failure as every interface needs it: status, entries, and headers it implies. */
export interface CallFailure {
  readonly ok: false;
  readonly status: number;
  readonly errors: EnvelopeError[];
  readonly retryAfterSeconds?: number;
  readonly reason: ErrorReason;
  /** Private: the underlying error, for logs only. */
  readonly cause?: unknown;
}

export interface CallSuccess {
  readonly ok: true;
  readonly status: 200;
  /** The `data` object (wire JSON). */
  readonly data: WireObject;
  readonly meta: ResponseInfo;
}

export function failure(status: number, reason: ErrorReason, errors: EnvelopeError[], retryAfterSeconds?: number): CallFailure {
  return { ok: false, status, reason, errors, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
}

export function singleFailure(status: number, reason: ErrorReason, message: string, path?: string[], retryAfterSeconds?: number): CallFailure {
  return failure(status, reason, [{ code: status, message, ...(path && path.length > 0 ? { path } : {}) }], retryAfterSeconds);
}

