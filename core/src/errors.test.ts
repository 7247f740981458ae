import { ErrorReason, GrpcCode } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { CoreError, invalidArgument } from './errors.js';

describe('CoreError', () => {
  it('uses the table default message and code', () => {
    const error = new CoreError(ErrorReason.UPSTREAM_BLOCKED, undefined, { retryAfterSeconds: 30, cause: new Error('captcha page') });
    expect(error.message).toBe('the marketplace blocked the request; retry later');
    expect(error.grpcCode).toBe(GrpcCode.UNAVAILABLE);
    expect(error.retryAfterSeconds).toBe(30);
    expect((error.cause as Error).message).toBe('captcha page');
  });
  it('carries the public message and field path', () => {
    const error = invalidArgument('page must be between 1 and 100', 'page');
    expect({ reason: error.reason, message: error.message, path: error.fieldPath }).toEqual({ reason: ErrorReason.INVALID_ARGUMENT, message: 'page must be between 1 and 100', path: ['page'] });
  });
});
