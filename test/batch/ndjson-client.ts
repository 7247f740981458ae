/**
 * An NDJSON batch over node:http, the client that sees HTTP trailers (fetch does not expose them):
 * each line is handed over as it arrives, then the trailers once the response ended.
 */
import { request } from 'node:http';

export interface NdjsonAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly lines: any[];
  readonly trailers: Record<string, string | undefined>;
}

export function postNdjson(url: string, headers: Record<string, string>, body: unknown, onLine: (line: any) => void = () => undefined): Promise<NdjsonAnswer> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/x-ndjson', te: 'trailers', ...headers } }, (res) => {
      const lines: any[] = [];
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n')) >= 0) {
          const line = JSON.parse(pending.slice(0, end));
          pending = pending.slice(end + 1);
          lines.push(line);
          onLine(line);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, lines, trailers: res.trailers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
