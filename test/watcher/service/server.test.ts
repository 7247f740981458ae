/**
 * The watcher's gRPC server itself: health answers without the token (probes carry none), a watcher
 * without a core refuses url keys as UNIMPLEMENTED, and stopping ends open event streams with
 * UNAVAILABLE at once (clients resume from their last cursor) instead of waiting out the grace period.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@connectrpc/connect';
import { credentials, Client as GrpcClient, status } from '@grpc/grpc-js';
import { ErrorReason } from '@retail/contract';
import { as, failureOf, newAccount, newAsin, startTestService, type TestService } from './fixtures.js';

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

describe('watcher gRPC server', () => {
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
