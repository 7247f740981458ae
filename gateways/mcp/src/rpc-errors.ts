/**
 * Request-level refusals of MCP (docs/contract.md, Errors): conflicting credentials (400), 401, 402,
 * 403 and 429 answer with that HTTP status and a JSON-RPC error whose `data` is the error
 * envelope. Their JSON-RPC codes sit in the implementation-defined server range.
 */
import { ErrorReason, type ErrorEnvelope } from '@retail/contract';
import type { CallFailure, EnvelopeError } from '@retail/gateway-shared';

const RPC_CODES: Readonly<Record<number, number>> = {
  400: -32600,
  401: -32001,
  402: -32002,
  403: -32003,
  429: -32029,
};

/** True when a failure is answered at the HTTP level rather than as an `isError` tool result. */
export function isRequestLevel(status: number, reason: ErrorReason): boolean {
  return reason === ErrorReason.CONFLICTING_CREDENTIALS || status === 401 || status === 402 || status === 403 || status === 429;
}

export function rpcCodeFor(status: number): number {
  return RPC_CODES[status] ?? -32000;
}

export function envelope(errors: readonly EnvelopeError[]): ErrorEnvelope {
  return { success: false, errors: errors.map((e) => ({ code: e.code, message: e.message, ...(e.path && e.path.length > 0 ? { path: [...e.path] } : {}) })) };
}

/** An error the SDK's Protocol turns into `{ code, message, data }` unchanged. */
export class RequestLevelError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data: ErrorEnvelope,
  ) {
    super(message);
  }
}

/** A failure answered at the HTTP level, its envelope as the JSON-RPC error's `data`. */
export function refusalError(failure: CallFailure): RequestLevelError {
  return new RequestLevelError(failure.status, rpcCodeFor(failure.status), failure.errors[0]?.message ?? 'request refused', envelope(failure.errors));
}

export function jsonRpcError(id: unknown, code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0' as const, id: id ?? null, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}
