/**
 * Raw HTTP/1.1 over node:net, for requests no HTTP client will send (oversized heads, non-ASCII
 * request lines, garbage): writes the bytes, reads until the server closes its side, and parses what
 * came back. `closedByServer` is false when the server left the connection open past `timeoutMs`.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number | undefined;
  /** Header names lower-cased; the last value wins. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Everything received, as latin1 text. */
  readonly raw: string;
  readonly closedByServer: boolean;
}

/** The first response in `raw` (status line, headers, body by Content-Length); the rest is ignored. */
export function parseRawResponse(raw: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return { status: undefined, headers: {}, body: '' };
  const [statusLine, ...lines] = raw.slice(0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? NaN);
  const rest = Buffer.from(raw.slice(headEnd + 4), 'latin1');
  const body = (Number.isFinite(length) ? rest.subarray(0, length) : rest).toString('utf8');
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN) || undefined, headers, body };
}

export function rawRequest(port: number, payload: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(payload));
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({ ...parseRawResponse(raw), raw, closedByServer });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => finish(true));
    // A reset after the answer still ends the exchange; before any byte it is the test's failure.
    socket.once('error', (error) => (chunks.length > 0 ? finish(true) : (clearTimeout(timer), reject(error))));
  });
}

/**
 * Malformed requests every server must answer with the envelope, and their statuses: each aimed at
 * `path` (a metered route, to show it is never reached) with `headers` (an API key) when given.
 */
export function malformedRequests(
  path = '/healthz',
  headers: Readonly<Record<string, string>> = {},
): ReadonlyArray<{ readonly name: string; readonly payload: Buffer; readonly status: number; readonly echo: string }> {
  const head = ['Host: localhost', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join('\r\n');
  const request = (line: string | Buffer, extra = '') =>
    Buffer.concat([typeof line === 'string' ? Buffer.from(line, 'latin1') : line, Buffer.from(`\r\n${head}\r\n${extra}\r\n`, 'latin1')]);
  const withQuery = path.includes('?') ? '&' : '?';
  return [
    { name: 'a 20 KB request head', payload: request(`GET ${path} HTTP/1.1`, `X-Filler: ${'a'.repeat(20 * 1024)}\r\n`), status: 431, echo: 'aaaaaaaa' },
    {
      name: 'non-ASCII bytes in the path',
      payload: request(Buffer.concat([Buffer.from(`GET ${path}${withQuery}q=caf`), Buffer.from([0xc3, 0xa9, 0xff]), Buffer.from(' HTTP/1.1')])),
      status: 400,
      echo: 'caf',
    },
    { name: 'a garbage request line', payload: request('\u0001GARBAGE-LINE'), status: 400, echo: 'GARBAGE' },
    { name: 'a control character in a header', payload: request(`GET ${path} HTTP/1.1`, 'X-Bad: evil\u0001value\r\n'), status: 400, echo: 'evil' },
  ];
}
