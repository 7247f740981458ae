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

/** Sends a request and returns the response with its body unread; throws UnreachableError when no HTTP answer came. */
export async function fetchApi(settings: ApiSettings, request: ApiRequest, accept = 'application/json'): Promise<Response> {
  const headers: Record<string, string> = { 'API-KEY': settings.key, accept };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(`${settings.base}${request.pathAndQuery}`, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    throw unreachable(settings, error);
  }
}

/** The UnreachableError of a failed fetch or body read: a timeout, or the network's cause. */
export function unreachable(settings: ApiSettings, error: unknown): UnreachableError {
  const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${settings.timeoutMs} ms` : causeOf(error);
  return new UnreachableError(`cannot reach ${settings.base}: ${reason}`);
}

/** A response as an answer: its JSON body, or the text when it is not JSON. */
export async function readAnswer(settings: ApiSettings, response: Response): Promise<ApiAnswer> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw unreachable(settings, error);
  }
  let body: unknown = text;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    // Not JSON (a proxy's error page): kept as text for the error output.
  }
  return { status: response.status, headers: response.headers, body };
}

export async function send(settings: ApiSettings, request: ApiRequest): Promise<ApiAnswer> {
  return readAnswer(settings, await fetchApi(settings, request));
}
