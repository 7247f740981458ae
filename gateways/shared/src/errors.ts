/**
 * Maps failures of a core call to the client-facing error of docs/contract.md: by the ErrorDetail's
 * reason when the core sent one; a status without the detail is a 500 (a crash in the core never
 * reads as "retry the marketplace"), except the transport's own failures: our deadline → 504,
 * core unreachable → 503.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, decodeBinaryHeader } from '@connectrpc/connect';
import { ERROR_DETAIL_METADATA_KEY, type ErrorDetail, ErrorDetailSchema, ErrorReason, errorRow } from '@retail/contract';
import type { ParameterStyle } from './parameters.js';
import type { Operation } from './registry.js';

export interface ClientError {
  readonly status: number;
  readonly message: string;
  readonly path?: string[];
  readonly reason: ErrorReason;
  readonly retryAfterSeconds?: number;
  /** Private: what actually happened, for logs only; never sent to a client. */
  readonly cause?: unknown;
}

/** Node error codes meaning the core's socket could not be opened or was lost. */
const TRANSPORT_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ETIMEDOUT', 'ERR_HTTP2_STREAM_CANCEL', 'ERR_HTTP2_SESSION_ERROR', 'ERR_HTTP2_GOAWAY_SESSION']);

function causeCode(err: unknown): string | undefined {
  for (let cause: unknown = err, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The ErrorDetail the core attached to a failed call, if any: from the standard
 * `grpc-status-details-bin` (Connect decodes it into the error's details), else from the deprecated
 * `retail-error-bin` that a core of the previous release still sends alone (read until 0.3).
 */
export function errorDetailOf(err: ConnectError): ErrorDetail | undefined {
  const [standard] = err.findDetails(ErrorDetailSchema);
  if (standard) return standard;
  const legacy = err.metadata.get(ERROR_DETAIL_METADATA_KEY);
  if (!legacy) return undefined;
  try {
    return fromBinary(ErrorDetailSchema, decodeBinaryHeader(legacy));
  } catch {
    return undefined;
  }
}

/**
 * Request-message field names ("search_term") → client parameter path for the interface, or under
 * `prefix` when the parameters sat somewhere else (a batch item's `["body", "items", "3", "params"]`).
 */
function clientPath(fieldPath: readonly string[], op: Operation | undefined, style: ParameterStyle, prefix?: readonly string[]): string[] | undefined {
  if (fieldPath.length === 0) return undefined;
  const names = fieldPath.map((name) => op?.request.fields.find((f) => f.name === name || f.jsonName === name)?.jsonName ?? name);
  if (prefix) return [...prefix, ...names];
  return style === 'rest' ? [restPlace(op, fieldPath[0]), ...names] : names;
}

/** Where a REST client wrote a request field: the query of a GET, else the path or the JSON body. */
function restPlace(op: Operation | undefined, fieldName: string | undefined): string {
  if (!op || op.httpMethod === 'GET') return 'query';
  return op.pathParameters.some((p) => p.field.name === fieldName || p.name === fieldName) ? 'path' : 'body';
}

function fromReason(reason: ErrorReason, message?: string, extra: Partial<ClientError> = {}): ClientError {
  const row = errorRow(reason);
  return { status: row.httpStatus, message: message || row.defaultMessage, reason, ...extra };
}

/** Maps anything a core call threw to the client-facing error. */
export function mapCoreError(err: unknown, op: Operation | undefined, style: ParameterStyle): ClientError {
  return { ...mapWithoutCause(err, op, style), cause: err };
}

/**
 * The client-facing error of an ErrorDetail: a failed call's, or a failed batch item's (whose
 * parameters sit under `pathPrefix`). A detail without a reason is a fault of the service: 500.
 */
export function clientErrorOfDetail(detail: ErrorDetail, op: Operation | undefined, style: ParameterStyle, pathPrefix?: readonly string[]): ClientError {
  if (detail.reason === ErrorReason.UNSPECIFIED) return fromReason(ErrorReason.INTERNAL);
  const path = clientPath(detail.fieldPath, op, style, pathPrefix);
  // A fault of the service keeps its generic message: its text may carry internals.
  const internal = errorRow(detail.reason).httpStatus === 500;
  return fromReason(detail.reason, internal ? undefined : detail.message, {
    ...(path ? { path } : {}),
    ...(detail.retryAfterSeconds !== undefined ? { retryAfterSeconds: detail.retryAfterSeconds } : {}),
  });
}

function mapWithoutCause(err: unknown, op: Operation | undefined, style: ParameterStyle): ClientError {
  const connectErr = ConnectError.from(err);
  const detail = errorDetailOf(connectErr);
  if (detail && detail.reason !== ErrorReason.UNSPECIFIED) return clientErrorOfDetail(detail, op, style);
  if (connectErr.code === Code.Unimplemented) {
    // A backend this deployment does not run (no WATCHER_ADDRESS), or an RPC a backend lacks: say so.
    return fromReason(ErrorReason.UNIMPLEMENTED, connectErr.rawMessage);
  }
  if (connectErr.code === Code.DeadlineExceeded) {
    return fromReason(ErrorReason.UPSTREAM_TIMEOUT, 'the service did not answer in time');
  }
  if (connectErr.code === Code.Unavailable || connectErr.code === Code.Canceled) {
    const code = causeCode(connectErr.cause);
    // No response metadata at all: the core was never reached (or the connection broke).
    const noResponse = [...connectErr.metadata.keys()].length === 0;
    if ((code && TRANSPORT_FAILURES.has(code)) || (connectErr.code === Code.Unavailable && noResponse)) {
      return { status: 503, message: 'the service is temporarily unavailable; retry later', reason: ErrorReason.INTERNAL, retryAfterSeconds: 1 };
    }
  }
  return fromReason(ErrorReason.INTERNAL);
}
