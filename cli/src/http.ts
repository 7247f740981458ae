/**
 * Sends one request to the REST API with the caller's key (fetch, Node's own undici client). The
 * base URL is checked before anything is sent: http or https, no credentials, no query.
 */
import { UsageError } from './exit-codes.js';
import type { ApiRequest } from './request.js';

export interface ApiSettings {
  /** Origin and optional path prefix, without a trailing slash. */
  readonly base: string;
  readonly key: string;
  readonly timeoutMs: number;
}

/** An answer of the API: its status, headers and JSON body (the text when it is not JSON). */
export interface ApiAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** No HTTP answer came: refused, DNS, TLS, timeout. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/** `http://127.0.0.1:8080/` → `http://127.0.0.1:8080`; throws UsageError for anything that is not an http(s) base. */
export function checkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base ${JSON.stringify(text)} is not a URL (e.g. http://127.0.0.1:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base must be http:// or https://, not ${url.protocol}`);
  if (url.username || url.password) throw new UsageError('--base must not carry credentials: give the key with --key or RETAIL_API_KEY');
  if (url.search || url.hash) throw new UsageError('--base must not carry a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

export async function send(settings: ApiSettings, request: ApiRequest): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'API-KEY': settings.key, accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${settings.base}${request.pathAndQuery}`, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${settings.timeoutMs} ms` : causeOf(error);
    throw new UnreachableError(`cannot reach ${settings.base}: ${reason}`);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    // Not JSON (a proxy's error page): kept as text for the error output.
  }
  return { status: response.status, headers: response.headers, body };
}
