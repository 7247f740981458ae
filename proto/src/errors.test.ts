import { describe, expect, it } from 'vitest';
import { ErrorReason, ErrorReasonSchema } from './gen/retail/v1/errors_pb.js';
import { ERROR_TABLE, GrpcCode, errorEnvelope, errorRow } from './errors.js';

describe('error table', () => {
  it('has a row for every ErrorReason the proto declares', () => {
    for (const value of ErrorReasonSchema.values) {
      expect(ERROR_TABLE[value.number as ErrorReason], value.name).toBeDefined();
    }
  });

  it.each([
    [ErrorReason.INVALID_ARGUMENT, GrpcCode.INVALID_ARGUMENT, 400],
    [ErrorReason.CONFLICTING_CREDENTIALS, GrpcCode.INVALID_ARGUMENT, 400],
    [ErrorReason.INVALID_API_KEY, GrpcCode.UNAUTHENTICATED, 401],
    [ErrorReason.INSUFFICIENT_UNITS, GrpcCode.RESOURCE_EXHAUSTED, 402],
    [ErrorReason.PERMISSION_DENIED, GrpcCode.PERMISSION_DENIED, 403],
    [ErrorReason.ACCOUNT_DISABLED, GrpcCode.PERMISSION_DENIED, 403],
    [ErrorReason.NOT_FOUND, GrpcCode.NOT_FOUND, 404],
    [ErrorReason.RATE_LIMITED, GrpcCode.RESOURCE_EXHAUSTED, 429],
    [ErrorReason.INTERNAL, GrpcCode.INTERNAL, 500],
    [ErrorReason.UNIMPLEMENTED, GrpcCode.UNIMPLEMENTED, 501],
    [ErrorReason.UPSTREAM_ERROR, GrpcCode.UNAVAILABLE, 502],
    [ErrorReason.UPSTREAM_BLOCKED, GrpcCode.UNAVAILABLE, 503],
    [ErrorReason.CIRCUIT_OPEN, GrpcCode.UNAVAILABLE, 503],
    [ErrorReason.SESSION_REQUIRED, GrpcCode.UNIMPLEMENTED, 501],
    [ErrorReason.LEDGER_UNAVAILABLE, GrpcCode.UNAVAILABLE, 503],
    [ErrorReason.UPSTREAM_TIMEOUT, GrpcCode.DEADLINE_EXCEEDED, 504],
  ])('maps reason %i to gRPC %i and HTTP %i (docs/contract.md)', (reason, grpc, http) => {
    expect(errorRow(reason)).toMatchObject({ grpcCode: grpc, httpStatus: http });
  });

  it('treats an unknown reason as an internal error', () => {
    expect(errorRow(999 as ErrorReason).httpStatus).toBe(500);
    expect(errorRow(ErrorReason.UNSPECIFIED).httpStatus).toBe(500);
  });

  it('says the key is invalid or missing on 401', () => {
    expect(errorRow(ErrorReason.INVALID_API_KEY).defaultMessage).toBe('API key is invalid or missing');
  });

  it('builds the envelope with code equal to the status and path only when given', () => {
    expect(errorEnvelope(400, 'bad', ['query', 'page'])).toEqual({
      success: false,
      errors: [{ code: 400, message: 'bad', path: ['query', 'page'] }],
    });
    expect(errorEnvelope(401, 'nope').errors[0]).not.toHaveProperty('path');
  });
});
