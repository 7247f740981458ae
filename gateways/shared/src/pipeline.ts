/**
 * The metered call, shared by REST, GraphQL and MCP, in docs/contract.md's order: credentials (400
 * conflicting, 401) → scope (403) → rate limit (429) → parameter shape (400) → units (402) → core
 * → settle (one unit on success, none on any error) → response metadata headers.
 * The steps are exported one by one so GraphQL can hold several operations in one request.
 */
import { randomUUID } from 'node:crypto';
import { ErrorReason, type WireObject, errorRow, renderData, retryAfterHeaderSeconds } from '@retail/contract';
import type { HeaderBag, Hold, Interface, Meter, RateLimitState } from '@retail/metering/api';
import type { CoreClient, ResponseInfo } from './core-client.js';
import { noteKeyId } from './access-log.js';
import { mapCoreError } from './errors.js';
import { type ParameterError, type ParameterStyle, parseParameters } from './parameters.js';
import type { Operation } from './registry.js';

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

export type CallResult = (CallSuccess | CallFailure) & {
  /** Response metadata headers (X-Request-Id, RateLimit*, X-Units-*, X-Cache, Retry-After…). */
  readonly headers: Record<string, string>;
  readonly unitsCharged: number;
  readonly unitsRemaining?: number;
  readonly requestId: string;
};

export interface PipelineDeps {
  readonly core: CoreClient;
  readonly meter: Meter;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is well-formed, otherwise a new one. */
export function requestIdFrom(headers: HeaderBag): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function failure(status: number, reason: ErrorReason, errors: EnvelopeError[], retryAfterSeconds?: number): CallFailure {
  return { ok: false, status, reason, errors, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
}

export function singleFailure(status: number, reason: ErrorReason, message: string, path?: string[], retryAfterSeconds?: number): CallFailure {
  return failure(status, reason, [{ code: status, message, ...(path && path.length > 0 ? { path } : {}) }], retryAfterSeconds);
}

function parameterFailure(errors: ParameterError[]): CallFailure {
  return failure(400, ErrorReason.INVALID_ARGUMENT, errors.map((e) => ({ code: 400, message: e.message, path: e.path })));
}

const ledgerDown = (): CallFailure => {
  const row = errorRow(ErrorReason.LEDGER_UNAVAILABLE);
  return singleFailure(row.httpStatus, ErrorReason.LEDGER_UNAVAILABLE, row.defaultMessage, undefined, 1);
};

/** Headers every metered response carries. */
export function meteringHeaders(
  meter: Meter,
  parts: { requestId: string; rateLimit?: RateLimitState; charged?: number; remaining?: number; meta?: ResponseInfo; retryAfterSeconds?: number },
): Record<string, string> {
  const headers: Record<string, string> = { 'X-Request-Id': parts.requestId };
  if (parts.rateLimit) Object.assign(headers, meter.rateLimitHeaders(parts.rateLimit));
  if (parts.charged !== undefined) headers['X-Units-Charged'] = String(parts.charged);
  if (parts.remaining !== undefined && Number.isFinite(parts.remaining)) headers['X-Units-Remaining'] = String(parts.remaining);
  if (parts.meta?.cache) headers['X-Cache'] = parts.meta.cache;
  if (parts.meta?.retrievedAt) headers['X-Retrieved-At'] = parts.meta.retrievedAt;
  if (parts.retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterHeaderSeconds(parts.retryAfterSeconds));
  return headers;
}

export type AdmitOutcome =
  | { readonly ok: true; readonly hold: Hold; readonly rateLimit: RateLimitState }
  | { readonly ok: false; readonly failure: CallFailure; readonly rateLimit?: RateLimitState };

/**
 * Credentials, scope, rate limit, shape and units for `operations`. `shapeErrors` are the
 * parameter errors the gateway found; they answer 400 only after scope and rate limit passed.
 */
export async function admitCall(
  meter: Meter,
  input: { headers: HeaderBag; iface: Interface; operations: readonly string[]; shapeErrors: ParameterError[]; requestId: string },
): Promise<AdmitOutcome> {
  const credentials = meter.readCredentials(input.headers, input.iface);
  if (!credentials.ok) {
    const d = credentials.denial;
    return { ok: false, failure: singleFailure(d.httpStatus, d.reason, d.message, undefined, d.retryAfterSeconds) };
  }
  let admitted;
  try {
    admitted = await meter.admit({
      key: credentials.key,
      interface: input.iface,
      operations: input.operations,
      shapeValid: input.shapeErrors.length === 0,
      requestId: input.requestId,
    });
  } catch (err) {
    return { ok: false, failure: { ...ledgerDown(), cause: err } };
  }
  if (admitted.ok) {
    noteKeyId(input.headers, admitted.hold.keyId);
    return { ok: true, hold: admitted.hold, rateLimit: admitted.rateLimit };
  }
  if (admitted.shape === true) {
    const errors = input.shapeErrors.length > 0 ? input.shapeErrors : [{ message: 'invalid request', path: [] }];
    return { ok: false, failure: parameterFailure(errors), rateLimit: admitted.rateLimit };
  }
  const d = admitted.denial;
  return {
    ok: false,
    failure: singleFailure(d.httpStatus, d.reason, d.message, undefined, d.retryAfterSeconds),
    ...(d.rateLimit ? { rateLimit: d.rateLimit } : {}),
  };
}

/** One core call: data rendered by the contract's wire renderer, or the mapped failure. */
export async function executeOperation(
  core: CoreClient,
  op: Operation,
  request: Record<string, unknown>,
  options: { requestId: string; style: ParameterStyle; signal?: AbortSignal },
): Promise<CallSuccess | CallFailure> {
  try {
    const { response, meta } = await core.callOperation(op, request, options);
    return { ok: true, status: 200, data: renderData(op.response, response), meta };
  } catch (err) {
    const mapped = mapCoreError(err, op, options.style);
    return { ...singleFailure(mapped.status, mapped.reason, mapped.message, mapped.path, mapped.retryAfterSeconds), cause: mapped.cause };
  }
}

/** Settles a hold; a ledger failure here never turns a served answer into an error. */
export async function settleHold(meter: Meter, hold: Hold, succeeded: number): Promise<{ charged: number; remaining?: number }> {
  try {
    return await meter.settle(hold, succeeded);
  } catch {
    return { charged: 0 };
  }
}

/** The whole metered call of one operation (REST and MCP). */
export async function runMeteredCall(
  deps: PipelineDeps,
  input: { op: Operation; params: Record<string, unknown>; style: ParameterStyle; headers: HeaderBag; signal?: AbortSignal },
): Promise<CallResult> {
  const requestId = requestIdFrom(input.headers);
  const parsed = parseParameters(input.op, input.params, input.style);
  const admitted = await admitCall(deps.meter, {
    headers: input.headers,
    iface: input.style,
    operations: [input.op.name],
    shapeErrors: parsed.ok ? [] : parsed.errors,
    requestId,
  });
  if (!admitted.ok) {
    const f = admitted.failure;
    const headers = meteringHeaders(deps.meter, {
      requestId,
      charged: 0,
      ...(admitted.rateLimit ? { rateLimit: admitted.rateLimit } : {}),
      ...(f.retryAfterSeconds !== undefined ? { retryAfterSeconds: f.retryAfterSeconds } : {}),
    });
    return { ...f, headers, unitsCharged: 0, requestId };
  }
  const result = parsed.ok
    ? await executeOperation(deps.core, input.op, parsed.request, { requestId, style: input.style, ...(input.signal ? { signal: input.signal } : {}) })
    : parameterFailure(parsed.errors); // unreachable: admit answers `shape` first
  const settled = await settleHold(deps.meter, admitted.hold, result.ok ? 1 : 0);
  const retryAfter = !result.ok && (result.status === 503 || result.status === 429) ? result.retryAfterSeconds : undefined;
  const headers = meteringHeaders(deps.meter, {
    requestId,
    rateLimit: admitted.rateLimit,
    charged: settled.charged,
    ...(settled.remaining !== undefined ? { remaining: settled.remaining } : {}),
    ...(result.ok ? { meta: result.meta } : {}),
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  });
  return {
    ...result,
    headers,
    unitsCharged: settled.charged,
    ...(settled.remaining !== undefined ? { unitsRemaining: settled.remaining } : {}),
    requestId,
  };
}
