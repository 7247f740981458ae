/**
 * One HTTP exchange over a raw TCP socket, for request heads no HTTP client would send (non-ASCII
 * bytes, oversized heads, broken request lines). Reads until the server closes or `timeoutMs`
 * passes, then splits the first response into status, headers and body.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** 0 when nothing came back. */
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The server neither answered nor closed within the time limit. */
  readonly hung: boolean;
}

export function rawExchange(port: number, request: Buffer, timeoutMs = 3_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let hung = false;
    const socket = connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      hung = true;
      socket.destroy();
    }, timeoutMs);
    // No half-close: some endpoints read a client's FIN as an abort. Every case is a complete request.
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // One complete response is enough; keep-alive servers would otherwise wait for the next request.
      if (complete(Buffer.concat(chunks))) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks), hung && chunks.length === 0));
    });
  });
}

function complete(raw: Buffer): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(raw.subarray(0, end).toString('latin1'));
  return length ? raw.length >= end + 4 + Number(length[1]) : false;
}

function parse(raw: Buffer, hung: boolean): RawAnswer {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  // The first response only: a server may write a second one (a late parse error) behind it.
  const bodyBytes = end < 0 ? Buffer.alloc(0) : raw.subarray(Buffer.byteLength(text.slice(0, end + 4)));
  const length = headers['content-length'] === undefined ? bodyBytes.length : Number(headers['content-length']);
  return { status, headers, body: bodyBytes.subarray(0, length).toString('utf8'), hung };
}
