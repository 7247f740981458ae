/**
 * The WatchService's failures: a reason from the contract's one error table (proto/src/errors.ts),
 * a public message and the offending request field, sent as the reason's gRPC code plus a
 * retail.v1.ErrorDetail in `grpc-status-details-bin`, exactly as the core sends its own. Anything
 * else a handler throws is INTERNAL with the generic message; its cause is logged, never sent.
 */
import { create } from '@bufbuild/protobuf';
import { Metadata, type StatusObject } from '@grpc/grpc-js';
import { ErrorDetailSchema, ErrorReason, GRPC_STATUS_DETAILS_METADATA_KEY, encodeErrorStatus, errorRow } from '@retail/contract';

export class WatchServiceError extends Error {
  override readonly name = 'WatchServiceError';
  readonly reason: ErrorReason;
  /** Request-message field names, e.g. ['webhook', 'url'] or ['conditions', '0', 'value']. */
  readonly fieldPath: readonly string[];

  constructor(reason: ErrorReason, publicMessage?: string, fieldPath: ReadonlyArray<string | number> = [], options?: { cause?: unknown }) {
    super(publicMessage ?? errorRow(reason).defaultMessage, options);
    this.reason = reason;
    this.fieldPath = fieldPath.map(String);
  }
}

export function invalidArgument(message: string, ...fieldPath: Array<string | number>): WatchServiceError {
  return new WatchServiceError(ErrorReason.INVALID_ARGUMENT, message, fieldPath);
}

/** Unknown, malformed, deleted or another account's: the same answer, so nothing confirms a watch exists. */
export function notFound(what: 'watch' | 'delivery' | 'job', field: string): WatchServiceError {
  return new WatchServiceError(ErrorReason.NOT_FOUND, `no such ${what}`, [field]);
}

/** Thrown when the call carries no valid service token or no account. */
export function unauthenticated(message: string): WatchServiceError {
  return new WatchServiceError(ErrorReason.UNAUTHENTICATED_SERVICE, message);
}

/** What a handler threw, as the error sent: unknown exceptions become INTERNAL, cause kept for the log. */
export function toWatchServiceError(error: unknown): WatchServiceError {
  if (error instanceof WatchServiceError) return error;
  return new WatchServiceError(ErrorReason.INTERNAL, undefined, [], { cause: error });
}

/** The gRPC status of an error: the reason's code from the one table and the ErrorDetail trailer. */
export function grpcStatusOf(error: WatchServiceError): StatusObject {
  const detail = create(ErrorDetailSchema, { reason: error.reason, message: error.message, fieldPath: [...error.fieldPath] });
  const code = errorRow(error.reason).grpcCode;
  const metadata = new Metadata();
  metadata.set(GRPC_STATUS_DETAILS_METADATA_KEY, Buffer.from(encodeErrorStatus(code, detail)));
  return { code, details: error.message, metadata };
}
