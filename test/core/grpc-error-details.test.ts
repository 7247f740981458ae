/**
 * Errors of the real core (grpc-js server) in the standard `grpc-status-details-bin` trailer, read the
 * ways other clients read them: Connect's `findDetails`, and a plain grpc-js client decoding the
 * google.rpc.Status itself (as grpcurl or another language's library does). The deprecated
 * `retail-error-bin` trailer still carries the same detail for one release.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { type Client, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import {
  ERROR_DETAIL_METADATA_KEY,
  ErrorDetailSchema,
  ErrorReason,
  GRPC_STATUS_DETAILS_METADATA_KEY,
  GetProductRequestSchema,
  GrpcCode,
  RetailService,
  RpcStatusSchema,
} from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedCore, startCore } from '../harness/core.js';

let core: StartedCore;
let client: Client<typeof RetailService>;

beforeAll(async () => {
  core = await startCore({ pages: { fetchPage: () => Promise.reject(new Error('no page is needed')) } });
  client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
});
afterAll(() => core?.stop());

/** A GetProduct call through a bare grpc-js client; resolves with the error it fails with. */
function grpcJsFailure(asin: string): Promise<grpc.ServiceError> {
  const raw = new grpc.Client(core.address, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${core.token}`);
  return new Promise((resolve, reject) => {
    raw.makeUnaryRequest(
      '/retail.v1.RetailService/GetProduct',
      (request: Uint8Array) => Buffer.from(request),
      (bytes: Buffer) => bytes,
      toBinary(GetProductRequestSchema, create(GetProductRequestSchema, { asin })),
      metadata,
      (error) => {
        raw.close();
        if (error) resolve(error);
        else reject(new Error('the call succeeded'));
      },
    );
  });
}

describe('gRPC error details', () => {
  it("are found by Connect's ConnectError.findDetails(ErrorDetail)", async () => {
    const error = await client.getProduct({ asin: 'B00' }, { headers: { authorization: `Bearer ${core.token}` } }).then(
      () => expect.unreachable('the call succeeded'),
      (e: unknown) => ConnectError.from(e),
    );
    const [detail] = error.findDetails(ErrorDetailSchema);
    expect(detail).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['asin'] });
    expect(error.rawMessage).toBe(detail!.message);
  });

  it('decode from grpc-status-details-bin as a google.rpc.Status, and match the deprecated trailer', async () => {
    const error = await grpcJsFailure('B00');
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    const [statusBytes] = error.metadata.get(GRPC_STATUS_DETAILS_METADATA_KEY) as Buffer[];
    const status = fromBinary(RpcStatusSchema, statusBytes!);
    expect(status.code).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(status.details.map((any) => any.typeUrl)).toEqual(['type.googleapis.com/retail.v1.ErrorDetail']);
    const detail = anyUnpack(status.details[0]!, ErrorDetailSchema);
    expect(detail).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['asin'], message: status.message });
    const [legacy] = error.metadata.get(ERROR_DETAIL_METADATA_KEY) as Buffer[];
    expect(fromBinary(ErrorDetailSchema, legacy!)).toEqual(detail);
  });
});
