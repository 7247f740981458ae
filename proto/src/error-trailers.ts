/**
 * How an ErrorDetail crosses gRPC. The standard place is the `grpc-status-details-bin` trailer: a
 * google.rpc.Status whose details hold a google.protobuf.Any of retail.v1.ErrorDetail, which Connect's
 * `ConnectError.findDetails`, grpcurl and the other languages' gRPC libraries read without knowing us.
 * The core also still sends the private `retail-error-bin` trailer (a bare ErrorDetail) for one
 * release, so clients built against 0.1 keep working; readers prefer the standard trailer.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyPack, anyUnpack } from '@bufbuild/protobuf/wkt';
import { StatusSchema } from './gen/google/rpc/status_pb.js';
import { type ErrorDetail, ErrorDetailSchema } from './gen/retail/v1/errors_pb.js';

/** The standard binary trailer of gRPC's rich error model (a serialized google.rpc.Status). */
export const GRPC_STATUS_DETAILS_METADATA_KEY = 'grpc-status-details-bin';

/**
 * The private trailer that carried a bare serialized retail.v1.ErrorDetail before errors moved to
 * `grpc-status-details-bin`.
 * @deprecated Sent and read for one more release (0.2); removed in 0.3. Read the standard trailer.
 */
export const ERROR_DETAIL_METADATA_KEY = 'retail-error-bin';

/** The google.rpc.Status of a failed call: gRPC code, message and the ErrorDetail packed in Any. */
export function encodeErrorStatus(grpcCode: number, detail: ErrorDetail): Uint8Array {
  return toBinary(StatusSchema, create(StatusSchema, { code: grpcCode, message: detail.message, details: [anyPack(ErrorDetailSchema, detail)] }));
}

/** The ErrorDetail inside a serialized google.rpc.Status, if it carries one. */
export function decodeErrorStatus(bytes: Uint8Array): ErrorDetail | undefined {
  const status = fromBinary(StatusSchema, bytes);
  for (const any of status.details) {
    const detail = anyUnpack(any, ErrorDetailSchema);
    if (detail) return detail;
  }
  return undefined;
}
