/**
 * RetailError: a failed call as the contract describes it (docs/contract.md, Errors across gRPC).
 * The server packs a retail.v1.ErrorDetail into the google.rpc.Status of the standard
 * `grpc-status-details-bin` trailer; Connect decodes that trailer into the error's details and
 * `findDetails` unpacks ours, so nothing here parses bytes by hand. A failure that carries no detail
 * (the network, a proxy, a deadline the client itself enforced) is a RetailError too, with reason
 * UNSPECIFIED and no detail, so callers catch one type.
 */
import { Code, ConnectError } from '@connectrpc/connect';
import { type ErrorDetail, ErrorDetailSchema, ErrorReason } from '@retail/contract';

export class RetailError extends Error {
  override readonly name = 'RetailError';
  /** The gRPC status code (Connect's Code: NotFound, InvalidArgument, Unavailable, ...). */
  readonly code: Code;
  /** Why the call failed, from the ErrorDetail; UNSPECIFIED when the failure carried none. */
  readonly reason: ErrorReason;
  /** The server's ErrorDetail, when it sent one. */
  readonly detail: ErrorDetail | undefined;
  /** Response headers and trailers of the failed call. */
  readonly metadata: Headers;

  constructor(cause: ConnectError) {
    const detail = cause.findDetails(ErrorDetailSchema)[0];
    super(detail?.message || cause.rawMessage, { cause });
    this.code = cause.code;
    this.reason = detail?.reason ?? ErrorReason.UNSPECIFIED;
    this.detail = detail;
    this.metadata = cause.metadata;
  }

  /** The offending input as request-message field names (`["page"]`), empty when not about one input. */
  get fieldPath(): readonly string[] {
    return this.detail?.fieldPath ?? [];
  }

  /** Seconds after which a retry may succeed, when the server knows. */
  get retryAfterSeconds(): number | undefined {
    return this.detail?.retryAfterSeconds;
  }

  /** The reason's name as the contract writes it ("NOT_FOUND"). */
  get reasonName(): string {
    return ErrorReason[this.reason];
  }
}

/** Any error a call rejects with, as a RetailError (an error that is not Connect's is wrapped as Code.Unknown). */
export function toRetailError(error: unknown): RetailError {
  return error instanceof RetailError ? error : new RetailError(ConnectError.from(error, Code.Unknown));
}
