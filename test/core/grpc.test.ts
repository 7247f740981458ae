/**
 * The core over real gRPC: a grpc-js server on a free port, called by a Connect gRPC client (as the
 * gateways call it) and by raw grpc-js clients for health and reflection.
 */
import { createRequire } from 'node:module';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { CacheStatus, Domain, type ErrorDetail, ErrorDetailSchema, ErrorReason, RetailService } from '@retail/contract';
import { HANDLERS, type HandlerTable, type OperationContext, type PageFetcher, UNIMPLEMENTED } from '@retail/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedCore, startCore } from '../harness/core.js';

const require = createRequire(import.meta.url);

/** What the test handlers saw, to assert on the context the core built. */
const seen: { context?: OperationContext; request?: unknown; aborted?: Promise<unknown> } = {};

const fakePages: PageFetcher = {
  fetchPage: async (request) => ({
    status: 200,
    html: `<html><title>${request.path}</title></html>`,
    url: `${request.marketplace.origin}${request.path}`,
    retrievedAt: new Date('2026-01-02T03:04:05Z'),
    fromCache: false,
  }),
};

/** The real table with a few entries swapped for probes (the rest stay as built). */
const handlers: HandlerTable = {
  ...HANDLERS,
  GetDeals: UNIMPLEMENTED,
  GetSeller: async (request, context) => {
    seen.context = context;
    seen.request = request;
    const page = await context.pages.fetchPage({ marketplace: context.marketplace, path: `/sp?seller=${request.sellerId}`, kind: 'seller', signal: context.signal });
    return { retailSeller: { sellerId: request.sellerId, name: `fetched ${page.url}` } };
  },
  GetAuthor: async () => {
    throw new Error('secret-connection-string postgres://admin:hunter2@db');
  },
  GetCategory: (_request, context) => {
    seen.aborted = new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(context.signal.reason), { once: true }));
    return new Promise(() => {});
  },
};

let core: StartedCore;
let client: Client<typeof RetailService>;
let auth: { authorization: string };

beforeAll(async () => {
  core = await startCore({ pages: fakePages, handlers });
  client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
  auth = { authorization: `Bearer ${core.token}` };
});

afterAll(async () => {
  await core?.stop();
});

/** The ConnectError and its retail.v1.ErrorDetail of a failing call. */
async function failure(call: Promise<unknown>): Promise<{ code: Code; message: string; detail: ErrorDetail | undefined }> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectError);
    const err = error as ConnectError;
    return { code: err.code, message: err.rawMessage, detail: err.findDetails(ErrorDetailSchema)[0] };
  }
  throw new Error('the call succeeded');
}

function healthClient(address: string) {
  const { service } = require('grpc-health-check') as { service: grpc.ServiceDefinition };
  const Health = grpc.makeClientConstructor(service, 'grpc.health.v1.Health');
  return new Health(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
    check(req: { service: string }, cb: (err: grpc.ServiceError | null, res?: { status: string | number }) => void): void;
  };
}

function healthCheck(address: string, service: string): Promise<{ status?: string | number; code?: number }> {
  const health = healthClient(address);
  return new Promise((resolve) => {
    health.check({ service }, (err, res) => {
      health.close();
      resolve(err ? { code: err.code } : { status: res?.status });
    });
  });
}

describe('health', () => {
  it('is SERVING for the server and RetailService without any token', async () => {
    expect(await healthCheck(core.address, '')).toEqual({ status: 'SERVING' });
    expect(await healthCheck(core.address, 'retail.v1.RetailService')).toEqual({ status: 'SERVING' });
    // Every service reflection lists has a health entry (grpc-reflect-health in ../shared/conformance checks each).
    expect(await healthCheck(core.address, 'retail.v1.DataHealthService')).toEqual({ status: 'SERVING' });
    expect((await healthCheck(core.address, 'no.such.Service')).code).toBe(grpc.status.NOT_FOUND);
  });
});

describe('reflection', () => {
  const reflectionProto = require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
  const definition = protoLoader.loadSync(reflectionProto, { keepCase: true, longs: String, enums: String, defaults: false, oneofs: true });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: new (address: string, credentials: grpc.ChannelCredentials) => grpc.Client & { ServerReflectionInfo(metadata?: grpc.Metadata): grpc.ClientDuplexStream<object, Record<string, unknown>> } } } };
  };

  function ask(request: object, withToken: boolean): Promise<Record<string, unknown>> {
    const reflection = new loaded.grpc.reflection.v1.ServerReflection(core.address, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    if (withToken) metadata.set('authorization', `Bearer ${core.token}`);
    const stream = reflection.ServerReflectionInfo(metadata);
    return new Promise((resolve, reject) => {
      stream.on('data', (answer) => {
        resolve(answer);
        stream.end();
        reflection.close();
      });
      stream.on('error', (error) => {
        reflection.close();
        reject(error);
      });
      stream.write(request);
    });
  }

  it('lists RetailService and health, and resolves the service descriptor with its 18 methods (17 lookups and BatchLookup)', async () => {
    const listed = (await ask({ list_services: '' }, true)) as { list_services_response: { service: Array<{ name: string }> } };
    const names = listed.list_services_response.service.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['retail.v1.RetailService', 'grpc.health.v1.Health']));

    const files = (await ask({ file_containing_symbol: 'retail.v1.RetailService' }, true)) as { file_descriptor_response: { file_descriptor_proto: Buffer[] } };
    const protos = files.file_descriptor_response.file_descriptor_proto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes));
    const serviceFile = protos.find((p) => p.service.some((s) => s.name === 'RetailService'));
    expect(serviceFile?.package).toBe('retail.v1');
    expect(serviceFile?.service[0]?.method).toHaveLength(18);
  });

  it('needs the service token', async () => {
    await expect(ask({ list_services: '' }, false)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
  });
});

describe('service token', () => {
  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['the token without the Bearer scheme', undefined],
  ])('refuses a call with %s', async (_label, headers) => {
    const { code, detail } = await failure(client.getProduct({ asin: 'B000000000' }, { headers: headers ?? { authorization: core.token } }));
    expect(code).toBe(Code.Unauthenticated);
    expect(detail?.reason).toBe(ErrorReason.UNAUTHENTICATED_SERVICE);
  });
});

describe('validation over gRPC', () => {
  it.each([
    ['a bad asin', client0 => client0.getProduct({ asin: 'B00' }, { headers: auth }), ['asin'], /asin/],
    ['no lookup key', client0 => client0.getProduct({}, { headers: auth }), ['asin'], /^asin, url or gtin must be provided$/],
    ['two lookup keys', client0 => client0.getProduct({ asin: 'B000000000', url: 'https://www.amazon.com/dp/B000000000' }, { headers: auth }), ['url'], /^provide exactly one of asin, url or gtin$/],
    ['page 0', client0 => client0.getProductOffers({ asin: 'B000000000', page: 0n }, { headers: auth }), ['page'], /page/],
    ['page 101 on an unimplemented RPC (validation first)', client0 => client0.getDeals({ page: 101n }, { headers: auth }), ['page'], /page/],
    ['a hostile URL', client0 => client0.getProduct({ url: 'https://www.amazon.com@evil.example/dp/B000000000' }, { headers: auth }), ['url'], /credentials/],
    ['a bad GTIN check digit', client0 => client0.getAsinFromGtin({ gtin: '4006381333932' }, { headers: auth }), ['gtin'], /check digit/],
  ] as Array<[string, (c: Client<typeof RetailService>) => Promise<unknown>, string[], RegExp]>)('answers INVALID_ARGUMENT for %s', async (_label, call, fieldPath, message) => {
    const { code, detail } = await failure(call(client));
    expect(code).toBe(Code.InvalidArgument);
    expect(detail?.reason).toBe(ErrorReason.INVALID_ARGUMENT);
    expect(detail?.fieldPath).toEqual(fieldPath);
    expect(detail?.message).toMatch(message);
  });
});

describe('dispatch', () => {
  it('answers UNIMPLEMENTED with its reason for an RPC without a handler', async () => {
    const { code, detail, message } = await failure(client.getDeals({ domain: Domain.DE }, { headers: auth }));
    expect(code).toBe(Code.Unimplemented);
    expect(detail?.reason).toBe(ErrorReason.UNIMPLEMENTED);
    expect(message).toBe('GetDeals is not implemented yet');
  });

  it('turns a plain exception into INTERNAL without leaking it', async () => {
    const { code, detail, message } = await failure(client.getAuthor({ asin: 'B000APZGGE' }, { headers: auth }));
    expect(code).toBe(Code.Internal);
    expect(detail?.reason).toBe(ErrorReason.INTERNAL);
    expect(`${message} ${detail?.message}`).not.toMatch(/secret|hunter2|postgres/);
  });

  it('gives the handler the validated request, marketplace, request id and pages, and fills meta', async () => {
    const response = await client.getSeller({ sellerId: 'A2R2RITDJNW1Q6', domain: Domain.JP }, { headers: { ...auth, 'x-request-id': 'req-123' } });
    expect(response.retailSeller?.name).toBe('fetched https://www.amazon.co.jp/sp?seller=A2R2RITDJNW1Q6');
    expect(seen.context?.requestId).toBe('req-123');
    expect(seen.context?.marketplace.code).toBe('JP');
    expect(seen.request).toMatchObject({ sellerId: 'A2R2RITDJNW1Q6', page: 1 });
    expect(response.meta?.cache).toBe(CacheStatus.MISS);
    expect(Number(response.meta?.retrievedAt?.seconds)).toBe(Date.parse('2026-01-02T03:04:05Z') / 1000);
  });

  it("aborts the handler's signal at the call's deadline", async () => {
    const { code } = await failure(client.getCategory({ categoryId: '172282' }, { headers: auth, timeoutMs: 300 }));
    expect(code).toBe(Code.DeadlineExceeded);
    const reason = await seen.aborted;
    expect(reason).toMatchObject({ reason: ErrorReason.UPSTREAM_TIMEOUT });
  });
});
