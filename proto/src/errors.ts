import { ErrorReason } from './gen/retail/v1/errors_pb.js';

/** gRPC status codes by name (numeric values are fixed by the gRPC spec and shared by Connect). */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

/** One row of the error table: how a failure reason travels over gRPC and HTTP. */
export interface ErrorRow {
  readonly grpcCode: GrpcCode;
  readonly httpStatus: number;
  /** Message used when the raiser gives none; safe to show to clients. */
  readonly defaultMessage: string;
}

/**
 * Where units come from, for a caller refused for a low balance: the console's account page says
 * how to get more and what happens meanwhile (it cannot add units itself); a self-hoster grants
 * them with the admin CLI. A placeholder, never a real account id.
 */
const ADD_UNITS_HINT = 'the console (/console) shows your balance and how to get units; self-hosted, grant them with the admin CLI (npm run admin -- account grant <accountId> <units>)';

/**
 * The one error table (docs/contract.md, Errors): reason → gRPC code → HTTP status. Every interface
 * derives its error shape from this table; nothing else maps codes to statuses.
 */
export const ERROR_TABLE: Readonly<Record<ErrorReason, ErrorRow>> = {
  [ErrorReason.UNSPECIFIED]: { grpcCode: GrpcCode.INTERNAL, httpStatus: 500, defaultMessage: 'internal error' },
  [ErrorReason.INVALID_ARGUMENT]: { grpcCode: GrpcCode.INVALID_ARGUMENT, httpStatus: 400, defaultMessage: 'invalid request' },
  [ErrorReason.CONFLICTING_CREDENTIALS]: { grpcCode: GrpcCode.INVALID_ARGUMENT, httpStatus: 400, defaultMessage: 'the request carries two different API keys' },
  [ErrorReason.INVALID_API_KEY]: { grpcCode: GrpcCode.UNAUTHENTICATED, httpStatus: 401, defaultMessage: 'API key is invalid or missing' },
  [ErrorReason.INSUFFICIENT_UNITS]: { grpcCode: GrpcCode.RESOURCE_EXHAUSTED, httpStatus: 402, defaultMessage: `unit balance is too low for this request; ${ADD_UNITS_HINT}` },
  [ErrorReason.PERMISSION_DENIED]: { grpcCode: GrpcCode.PERMISSION_DENIED, httpStatus: 403, defaultMessage: 'this API key may not use this operation' },
  [ErrorReason.ACCOUNT_DISABLED]: { grpcCode: GrpcCode.PERMISSION_DENIED, httpStatus: 403, defaultMessage: 'this account is disabled' },
  [ErrorReason.NOT_FOUND]: { grpcCode: GrpcCode.NOT_FOUND, httpStatus: 404, defaultMessage: 'the marketplace has no such item' },
  [ErrorReason.RATE_LIMITED]: { grpcCode: GrpcCode.RESOURCE_EXHAUSTED, httpStatus: 429, defaultMessage: 'rate limit of the plan exceeded' },
  [ErrorReason.INTERNAL]: { grpcCode: GrpcCode.INTERNAL, httpStatus: 500, defaultMessage: 'internal error' },
  [ErrorReason.UNIMPLEMENTED]: { grpcCode: GrpcCode.UNIMPLEMENTED, httpStatus: 501, defaultMessage: 'this operation is not implemented yet' },
  [ErrorReason.UPSTREAM_ERROR]: { grpcCode: GrpcCode.UNAVAILABLE, httpStatus: 502, defaultMessage: 'the marketplace returned an unexpected response; retry with exponential back-off' },
  [ErrorReason.UPSTREAM_BLOCKED]: { grpcCode: GrpcCode.UNAVAILABLE, httpStatus: 503, defaultMessage: 'the marketplace blocked the request; retry later' },
  [ErrorReason.CIRCUIT_OPEN]: { grpcCode: GrpcCode.UNAVAILABLE, httpStatus: 503, defaultMessage: 'the marketplace is failing; requests are paused briefly' },
  // Not a transient fault but the deployment's configuration: 501 / UNIMPLEMENTED ("not supported or
  // not enabled in this service"), which clients and gRPC retry policies do not retry, as they would 503.
  [ErrorReason.SESSION_REQUIRED]: {
    grpcCode: GrpcCode.UNIMPLEMENTED,
    httpStatus: 501,
    defaultMessage: 'this operation needs a signed-in marketplace session, which this deployment is not configured with; retrying will not help',
  },
  [ErrorReason.LEDGER_UNAVAILABLE]: { grpcCode: GrpcCode.UNAVAILABLE, httpStatus: 503, defaultMessage: 'the unit ledger is unavailable; nothing was charged' },
  [ErrorReason.UPSTREAM_TIMEOUT]: { grpcCode: GrpcCode.DEADLINE_EXCEEDED, httpStatus: 504, defaultMessage: 'the marketplace did not answer in time' },
  [ErrorReason.UNAUTHENTICATED_SERVICE]: { grpcCode: GrpcCode.UNAUTHENTICATED, httpStatus: 500, defaultMessage: 'service token missing or invalid' },
  // Asked for by the client (skipOnIncident): a refusal of the service's own reading, not of the marketplace.
  [ErrorReason.DATA_INCIDENT]: { grpcCode: GrpcCode.UNAVAILABLE, httpStatus: 503, defaultMessage: 'the pages this call reads are under a data incident; nothing was charged' },
};

/**
 * A refusal's message with when to try again: the same whole seconds as its Retry-After header, so
 * a reader of the body alone knows how long to wait ("rate limit of the plan exceeded; retry after 3 s").
 */
export function withRetryAfter(message: string, retryAfterSeconds: number): string {
  return `${message}; retry after ${retryAfterHeaderSeconds(retryAfterSeconds)} s`;
}

/** Retry-After in whole seconds ≥ 1 (docs/contract.md, Errors): a wait rounded down could retry too early. */
export function retryAfterHeaderSeconds(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds));
}

/** The error envelope every interface returns (docs/contract.md, Errors). */
export interface ErrorEnvelope {
  success: false;
  errors: Array<{ code: number; message: string; path?: string[] }>;
}

export function errorRow(reason: ErrorReason): ErrorRow {
  return ERROR_TABLE[reason] ?? ERROR_TABLE[ErrorReason.INTERNAL];
}

/** Builds the envelope for one error. */
export function errorEnvelope(status: number, message: string, path?: readonly string[]): ErrorEnvelope {
  const entry: ErrorEnvelope['errors'][number] = { code: status, message };
  if (path && path.length > 0) entry.path = [...path];
  return { success: false, errors: [entry] };
}
