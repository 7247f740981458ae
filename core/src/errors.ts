import { ErrorReason, errorRow } from '@retail/contract';

export interface CoreErrorOptions {
  /** Offending input as request-message field names, e.g. ['page']. */
  fieldPath?: readonly string[];
  /** Seconds after which a retry may succeed, when known. */
  retryAfterSeconds?: number;
  /** The private cause: logged, never sent to a client. */
  cause?: unknown;
}

/**
 * A failure with a reason from the contract's error table. `message` is public (it travels to
 * clients in the ErrorDetail); anything private belongs in `cause`. The gRPC layer turns it into the
 * reason's status code plus a retail.v1.ErrorDetail; any other exception becomes INTERNAL.
 */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  readonly reason: ErrorReason;
  readonly fieldPath: readonly string[];
  readonly retryAfterSeconds: number | undefined;

  constructor(reason: ErrorReason, publicMessage?: string, options: CoreErrorOptions = {}) {
    super(publicMessage ?? errorRow(reason).defaultMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.fieldPath = Object.freeze([...(options.fieldPath ?? [])]);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The gRPC status code of the reason (from the one error table). */
  get grpcCode(): number {
    return errorRow(this.reason).grpcCode;
  }
}

export function isCoreError(error: unknown): error is CoreError {
  return error instanceof CoreError;
}

/** Shorthand for the most common error: a bad parameter, naming the proto field. */
export function invalidArgument(message: string, field: string | readonly string[]): CoreError {
  return new CoreError(ErrorReason.INVALID_ARGUMENT, message, { fieldPath: typeof field === 'string' ? [field] : field });
}
