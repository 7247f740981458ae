/**
 * grpc.health.v1 Check over raw HTTP/2: the gateways' readiness probe of the core. Written by hand
 * because the request is empty and the answer is one varint; it spares a generated health stub.
 */
import http2 from 'node:http2';

/** HealthCheckResponse { status = SERVING (1) } as protobuf bytes: field 1, varint 1. */
const SERVING = Buffer.from([0x08, 0x01]);
/** An empty HealthCheckRequest in one gRPC frame: not compressed, length 0. */
const EMPTY_FRAME = Buffer.alloc(5);

export function checkCoreHealth(address: string, authorization: string, signal?: AbortSignal, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const session = http2.connect(`http://${address}`);
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.close();
      session.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    signal?.addEventListener('abort', () => finish(false), { once: true });
    session.on('error', () => finish(false));
    const stream = session.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization,
    });
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => finish(false));
    stream.on('trailers', (trailers) => {
      const body = Buffer.concat(chunks);
      finish(trailers['grpc-status'] === '0' && body.length >= 7 && body.subarray(5, 7).equals(SERVING));
    });
    stream.on('close', () => finish(false));
    stream.end(EMPTY_FRAME);
  });
}
