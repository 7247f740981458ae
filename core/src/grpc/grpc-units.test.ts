import { Metadata } from '@grpc/grpc-js';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ERROR_DETAIL_METADATA_KEY, ErrorDetailSchema, ErrorReason, GRPC_STATUS_DETAILS_METADATA_KEY, GetProductRequestSchema, GrpcCode, RetailService, decodeErrorStatus } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { createTokenCheck } from '@retail/contract/service-token';
import { grpcServiceDefinition } from '@retail/contract/grpc-service-definition';
import { coreErrorStatus, toCoreError } from './status.js';

describe('grpcServiceDefinition', () => {
  it('serves the 17 unary methods and server-streaming BatchLookup at /retail.v1.RetailService/<Name> with protobuf-es binary', () => {
    const definition = grpcServiceDefinition(RetailService);
    expect(Object.keys(definition)).toHaveLength(18);
    expect(definition.BatchLookup).toMatchObject({ path: '/retail.v1.RetailService/BatchLookup', requestStream: false, responseStream: true });
    const getProduct = definition.GetProduct!;
    expect(getProduct.path).toBe('/retail.v1.RetailService/GetProduct');
    expect(getProduct.requestStream || getProduct.responseStream).toBe(false);
    const message = create(GetProductRequestSchema, { asin: 'B000000000' });
    const bytes = getProduct.requestSerialize(message);
    expect(Buffer.compare(bytes, Buffer.from(toBinary(GetProductRequestSchema, message)))).toBe(0);
    expect(getProduct.requestDeserialize(bytes)).toEqual(message);
  });
});

describe('createTokenCheck', () => {
  const check = createTokenCheck('the-service-token');
  const withAuth = (...values: string[]) => {
    const metadata = new Metadata();
    for (const value of values) metadata.add('authorization', value);
    return metadata;
  };
  it('accepts exactly `Bearer <token>`', () => {
    expect(check(withAuth('Bearer the-service-token'))).toBe(true);
    expect(check(withAuth('bearer the-service-token'))).toBe(true);
  });
  it.each([[[]], [['the-service-token']], [['Bearer the-service-toke']], [['Bearer the-service-token2']], [['Basic the-service-token']], [['Bearer the-service-token', 'Bearer the-service-token']]])(
    'refuses %j',
    (values) => {
      expect(check(withAuth(...(values)))).toBe(false);
    },
  );
});

describe('error status', () => {
  it("carries the reason's code and the ErrorDetail in grpc-status-details-bin and the deprecated retail-error-bin", () => {
    const status = coreErrorStatus(new CoreError(ErrorReason.INVALID_ARGUMENT, 'page must be between 1 and 100', { fieldPath: ['page'], retryAfterSeconds: 2 }));
    expect(status.code).toBe(GrpcCode.INVALID_ARGUMENT);
    const expected = { reason: ErrorReason.INVALID_ARGUMENT, message: 'page must be between 1 and 100', fieldPath: ['page'], retryAfterSeconds: 2 };
    expect(decodeErrorStatus(status.metadata!.get(GRPC_STATUS_DETAILS_METADATA_KEY)[0] as Buffer)).toMatchObject(expected);
    expect(fromBinary(ErrorDetailSchema, status.metadata!.get(ERROR_DETAIL_METADATA_KEY)[0] as Buffer)).toMatchObject(expected);
  });
  it('hides unknown exceptions behind INTERNAL and reads late failures as timeouts', () => {
    const internal = toCoreError(new Error('db password is hunter2'), false);
    expect({ reason: internal.reason, message: internal.message }).toEqual({ reason: ErrorReason.INTERNAL, message: 'internal error' });
    expect(toCoreError(new Error('aborted'), true).reason).toBe(ErrorReason.UPSTREAM_TIMEOUT);
  });
});
