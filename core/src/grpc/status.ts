import { create, toBinary } from '@bufbuild/protobuf';
import { Metadata, type StatusObject } from '@grpc/grpc-js';
import { ERROR_DETAIL_METADATA_KEY, type ErrorDetail, ErrorDetailSchema, ErrorReason, GRPC_STATUS_DETAILS_METADATA_KEY, encodeErrorStatus, errorRow } from '@retail/contract';
import { CoreError } from '../errors.js';

/** The ErrorDetail of a CoreError: what a failed call's trailers and a failed batch item carry. */
export function errorDetailOf(error: CoreError): ErrorDetail {
  return create(ErrorDetailSchema, {
    reason: error.reason,
    message: error.message,
    fieldPath: [...error.fieldPath],
    retryAfterSeconds: error.retryAfterSeconds,
  });
}

/**
 * A CoreError's ErrorDetail in the trailers: in the standard `grpc-status-details-bin` (a
 * google.rpc.Status with the detail packed in Any, which any gRPC client can read) and, for one
 * more release, bare in the deprecated `retail-error-bin` that 0.1 clients read.
 */
export function errorDetailMetadata(error: CoreError): Metadata {
  const detail = errorDetailOf(error);
  const metadata = new Metadata();
  metadata.set(GRPC_STATUS_DETAILS_METADATA_KEY, Buffer.from(encodeErrorStatus(errorRow(error.reason).grpcCode, detail)));
  metadata.set(ERROR_DETAIL_METADATA_KEY, Buffer.from(toBinary(ErrorDetailSchema, detail)));
  return metadata;
}

/** The gRPC status of a CoreError: the reason's code from the one error table, plus its detail. */
export function coreErrorStatus(error: CoreError): Partial<StatusObject> & { code: number; details: string } {
  return { code: errorRow(error.reason).grpcCode, details: error.message, metadata: errorDetailMetadata(error) };
}

/**
 * Turns whatever a call threw into a CoreError. Unknown exceptions become INTERNAL with the generic
 * message (the original stays the private cause, for the log); a failure after the call's deadline
 * passed is a timeout, whatever shape it had.
 */
export function toCoreError(error: unknown, deadlinePassed: boolean): CoreError {
  if (error instanceof CoreError) return error;
  if (deadlinePassed) return new CoreError(ErrorReason.UPSTREAM_TIMEOUT, undefined, { cause: error });
  return new CoreError(ErrorReason.INTERNAL, undefined, { cause: error });
}
