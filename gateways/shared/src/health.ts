/**
 * grpc.health.v1 Check over raw HTTP/2: the gateways' readiness probe of the core, and the core's
 * entry for the marketplace (`retail.marketplace`: whether the core reaches it). Written by hand
 * because the request is one string field and the answer one varint; it spares a generated stub.
 */
import http2 from 'node:http2';

/** HealthCheckResponse.ServingStatus, plus what a failed check means: the core did not answer, or has no such entry. */
export type HealthStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN' | 'NO_ANSWER';

const STATUSES: readonly HealthStatus[] = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

/** HealthCheckRequest { service } in one gRPC frame (not compressed; field 1, length-delimited). */
function requestFrame(service: string): Buffer {
  const name = Buffer.from(service, 'utf8');
  const message = name.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x0a, name.length]), name]);
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

/** The status in a HealthCheckResponse frame: field 1 varint, absent when UNKNOWN (0). */
function statusOf(body: Buffer): HealthStatus {
  const message = body.subarray(5);
  if (message.length === 0) return 'UNKNOWN';
  return message[0] === 0x08 && message.length >= 2 ? (STATUSES[message[1]!] ?? 'UNKNOWN') : 'UNKNOWN';
}

export function coreHealthStatus(
  address: string,
  authorization: string,
  options: { readonly service?: string; readonly signal?: AbortSignal; readonly timeoutMs?: number } = {},
): Promise<HealthStatus> {
  const service = options.service ?? '';
  // Names longer than one length byte are not ours to ask for.
  if (Buffer.byteLength(service) > 127) return Promise.resolve('SERVICE_UNKNOWN');
  return new Promise((resolve) => {
    let settled = false;
    const session = http2.connect(`http://${address}`);
    const finish = (status: HealthStatus) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.close();
      session.destroy();
      resolve(status);
    };
    const timer = setTimeout(() => finish('NO_ANSWER'), options.timeoutMs ?? 2000);
    options.signal?.addEventListener('abort', () => finish('NO_ANSWER'), { once: true });
    session.on('error', () => finish('NO_ANSWER'));
    const stream = session.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization,
    });
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => finish('NO_ANSWER'));
    stream.on('trailers', (trailers) => {
      const body = Buffer.concat(chunks);
      // NOT_FOUND (5): the core has no entry of that name (an older core without the marketplace's).
      if (trailers['grpc-status'] === '5') finish('SERVICE_UNKNOWN');
      else finish(trailers['grpc-status'] === '0' && body.length >= 5 ? statusOf(body) : 'NO_ANSWER');
    });
    stream.on('close', () => finish('NO_ANSWER'));
    stream.end(requestFrame(service));
  });
}

/** The core's own health: true when it answers SERVING. */
export async function checkCoreHealth(address: string, authorization: string, signal?: AbortSignal, timeoutMs = 2000): Promise<boolean> {
  return (await coreHealthStatus(address, authorization, { ...(signal ? { signal } : {}), timeoutMs })) === 'SERVING';
}
