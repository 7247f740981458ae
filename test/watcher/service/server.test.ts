/**
 * The watcher's gRPC server itself: health answers without the token (probes carry none), a watcher
 * without a core refuses url keys as UNIMPLEMENTED, and stopping ends open event streams with
 * UNAVAILABLE at once (clients resume from their last cursor) instead of waiting out the grace period,
 * and server reflection (the contract's grpc-reflection.ts) lists its services.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { Code } from '@connectrpc/connect';
import { credentials, Client as GrpcClient, Metadata, loadPackageDefinition, status } from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ErrorReason } from '@retail/contract';
import { SERVICE_TOKEN, as, failureOf, newAccount, newAsin, startTestService, type TestService } from './fixtures.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** grpc.health.v1 Check of the whole server ('' service: an empty request), with no metadata at all. */
function healthCheck(port: number): Promise<Buffer> {
  const client = new GrpcClient(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest('/grpc.health.v1.Health/Check', (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), (error, response) => {
      client.close();
      if (error) reject(error);
      else resolve(response!);
    });
  });
}

type ReflectionClient = GrpcClient & { ServerReflectionInfo(metadata: Metadata): NodeJS.ReadWriteStream & { write(request: object): boolean } };

/** One server reflection request (grpc.reflection.v1) with the service token, its first answer. */
function reflect(port: number, request: object): Promise<Record<string, unknown>> {
  const proto = createRequire(import.meta.url).resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
  const loaded = loadPackageDefinition(protoLoader.loadSync(proto, { keepCase: true, defaults: false, oneofs: true })) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => ReflectionClient } } };
  };
  const client = new loaded.grpc.reflection.v1.ServerReflection(`127.0.0.1:${port}`, credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${SERVICE_TOKEN}`);
  const stream = client.ServerReflectionInfo(metadata);
  return new Promise((resolve, reject) => {
    stream.on('data', (answer: Record<string, unknown>) => {
      resolve(answer);
      stream.end();
      client.close();
    });
    stream.on('error', (error) => {
      client.close();
      reject(error);
    });
    stream.write(request);
  });
}

describe('watcher gRPC server', () => {
  it('answers server reflection for exactly the services it serves (here the WatchService, given no job, incident or archive store) and health', async () => {
    const listed = (await reflect(t.port, { list_services: '' })) as { list_services_response: { service: { name: string }[] } };
    expect(listed.list_services_response.service.map((s) => s.name).sort()).toEqual(['grpc.health.v1.Health', 'retail.v1.WatchService']);
    const files = (await reflect(t.port, { file_containing_symbol: 'retail.v1.WatchService' })) as { file_descriptor_response: { file_descriptor_proto: Buffer[] } };
    const protos = files.file_descriptor_response.file_descriptor_proto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes));
    expect(protos.find((p) => p.service.some((s) => s.name === 'WatchService'))?.package).toBe('retail.v1');
  });

  it('answers health checks without the service token: SERVING', async () => {
    // HealthCheckResponse { status: SERVING (1) } is field 1, varint 1.
    expect([...await healthCheck(t.port)]).toEqual([0x08, 0x01]);
  });

  it('without a core, accepts asin keys and answers UNIMPLEMENTED for a url', async () => {
    const account = newAccount();
    await t.client.createWatch({ asin: newAsin() }, as(account));
    const failure = await failureOf(t.client.createWatch({ url: 'https://www.amazon.com/dp/B000000001' }, as(account)));
    expect(failure).toMatchObject({ code: Code.Unimplemented, detail: { reason: ErrorReason.UNIMPLEMENTED, fieldPath: ['url'] } });
  });

  it('ends open event streams with UNAVAILABLE when it stops, well before the grace period', async () => {
    const account = newAccount();
    const watch = (await t.client.createWatch({ asin: newAsin() }, as(account))).retailWatch!;
    const [event] = await t.store.events.append([{
      accountId: account, watchId: watch.id, type: 'OUT_OF_STOCK', dedupeKey: 'stop', before: { isInStock: true }, after: { isInStock: false }, at: new Date(),
    }]);
    const stream = t.client.streamWatchEvents({ cursor: '0' }, as(account))[Symbol.asyncIterator]();
    expect((await stream.next()).value?.event?.id).toBe(event!.id);
    const started = Date.now();
    const ended = failureOf(stream.next());
    await t.server.stop({ graceMs: 20_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await ended).code).toBe(Code.Unavailable);
    await expect(healthCheck(t.port)).rejects.toMatchObject({ code: status.UNAVAILABLE });
  });
});
