/**
 * Console test harness: the console router on a real HTTP server (port 0) and a small client that
 * behaves like the page (keeps the session cookie, sends the CSRF token on state-changing calls).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Metering } from '@retail/metering/api';
import { createConsole, type ConsoleOptions } from '@retail/console';

export const TEST_SECRET = 'test-session-secret-0123456789abcdef';
/** Cheap scrypt parameters: the tests exercise the flow, not the cost. */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 } as const;
export const GOOD_PASSWORD = 'correct horse battery';

export interface RunningConsole {
  readonly origin: string;
  /** `${origin}/console` */
  readonly base: string;
  close(): Promise<void>;
}

export async function startConsole(
  options: Partial<ConsoleOptions> & { metering: Metering },
  configure?: (app: express.Express) => void,
): Promise<RunningConsole> {
  const app = express();
  configure?.(app);
  app.use(
    '/console',
    createConsole({
      signupMode: 'open',
      sessionSecret: TEST_SECRET,
      secureCookies: false,
      passwordCost: TEST_PASSWORD_COST,
      log: () => {},
      ...options,
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    base: `${origin}/console`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

/** A browser-like API client: one cookie, one CSRF token. */
export class ConsoleClient {
  cookie: string | undefined;
  csrf: string | undefined;
  setCookies: string[] = [];

  constructor(
    readonly base: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  async request(method: string, path: string, body?: unknown, init: { csrf?: string | null; rawBody?: string; contentType?: string } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...this.extraHeaders };
    if (this.cookie) headers.cookie = this.cookie;
    const csrf = init.csrf === undefined ? this.csrf : init.csrf;
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
    if (body !== undefined || init.rawBody !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
    const response = await fetch(`${this.base}/api/${path}`, {
      method,
      headers,
      body: init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      redirect: 'manual',
    });
    this.setCookies = response.headers.getSetCookie();
    for (const line of this.setCookies) {
      const [pair] = line.split(';');
      if (!pair) continue;
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    const text = await response.text();
    const parsed = text === '' ? undefined : JSON.parse(text);
    if (parsed?.data?.csrfToken) this.csrf = parsed.data.csrfToken;
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body?: unknown) => this.request('POST', path, body);
  delete = (path: string) => this.request('DELETE', path);

  /** GET session (anonymous) then sign up: the page's own sequence. */
  async signUp(email: string, password = GOOD_PASSWORD, extra: Record<string, unknown> = {}): Promise<ApiResponse> {
    if (!this.csrf) await this.get('session');
    return this.post('signup', { email, password, ...extra });
  }

  async signIn(email: string, password = GOOD_PASSWORD): Promise<ApiResponse> {
    if (!this.csrf) await this.get('session');
    return this.post('signin', { email, password });
  }
}

let counter = 0;
export const uniqueEmail = (tag = 'user') => `${tag}.${process.pid}.${Date.now()}.${counter++}@example.com`;
