/**
 * The start banner of `npm start` and `npm run demo`, read from the started process as a person
 * reads it: every address and secret it prints works (the landing page answers, the service token
 * opens the core and the watcher over gRPC, the key calls the API), and the key is on the
 * development plan the banner names, not the free plan's 5 requests/s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Code, ConnectError, createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { Domain, RetailService, WatchService } from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplayServer, type ReplayServer } from '../replay/server.js';

const ROOT = resolve(import.meta.dirname, '../..');

interface Started {
  readonly child: ChildProcess;
  readonly banner: string;
  /** The banner's rows: label → value (the text before the two-space gap and its note). */
  readonly rows: ReadonlyMap<string, string>;
  readonly notes: ReadonlyMap<string, string>;
}

/** Starts an entry point as `npm start` does and resolves with its banner, once printed whole. */
async function start(main: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const banner = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s; stderr: ${err}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/\n {2}More: .*\n/.test(out)) {
        clearTimeout(timer);
        resolvePromise(out);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before its banner; stderr: ${err}`)));
  });
  const rows = new Map<string, string>();
  const notes = new Map<string, string>();
  for (const match of banner.matchAll(/^ {2}(\S+(?: \S+)?) {2,}(.+?)(?: {2}\((.*)\))?$/gm)) {
    rows.set(match[1]!, match[2]!);
    if (match[3]) notes.set(match[1]!, match[3]);
  }
  return { child, banner, rows, notes };
}

async function stop(started: Started | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return;
  await new Promise((resolvePromise) => {
    started.child.once('exit', resolvePromise);
    started.child.kill('SIGTERM');
  });
}

const withToken = (token: string): Interceptor => (next) => (request) => {
  request.header.set('authorization', `Bearer ${token}`);
  return next(request);
};

let replay: ReplayServer;
const dataDirs: string[] = [];
const watcherDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'banner-watcher-'));
  dataDirs.push(dir);
  return dir;
};

const DEMO_TOKEN = 'demo-token-kept-across-restarts';
let npmStart: Started | undefined;
let demo: Started | undefined;

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [resolve(ROOT, 'test/fixtures/pages')], port: 0, host: '127.0.0.1' });
  // Both entry points start at once: each start is seconds of waiting (tsx, the core's parse workers,
  // the watcher's PGlite), and one after the other doubles it. They share nothing but the replay server.
  const [app, demoApp] = await Promise.allSettled([
    start('app/src/main.ts', { MARKETPLACE_ORIGIN: replay.origin, WATCHER_DATA_DIR: watcherDataDir() }),
    start('app/src/demo.ts', { RETAIL_CORPUS: join(tmpdir(), 'no-corpus-here'), SERVICE_TOKEN: DEMO_TOKEN, WATCHER_DATA_DIR: watcherDataDir() }),
  ]);
  if (app.status === 'fulfilled') npmStart = app.value;
  if (demoApp.status === 'fulfilled') demo = demoApp.value;
  for (const result of [app, demoApp]) if (result.status === 'rejected') throw result.reason;
}, 90_000);
afterAll(async () => {
  await Promise.all([stop(npmStart), stop(demo)]);
  await replay?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  let started: Started;
  beforeAll(() => {
    started = npmStart!;
  });

  it('prints the landing page first, and it answers', async () => {
    const url = started.rows.get('Start here')!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(started.notes.get('Start here')).toBe('landing page: API reference, GraphiQL, console, docs');
    expect(started.banner.split('\n')[0]).toBe(`Retail Data API is running (upstream: ${replay.origin})`);
    const landing = await fetch(url);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('<title>Retail Data API</title>');
    expect(started.rows.get('HTTP')).toBe(url.slice(0, -1));
  });

  it('prints the development key on the development plan, which the API applies', async () => {
    const key = started.rows.get('API key')!;
    expect(key).toMatch(/^rk_[a-z0-9]{12}_[0-9A-Za-z]{38}$/);
    expect(started.rows.get('Plan')).toBe('development: 100 requests/s, bursts of 200; 1000 units');
    const account = started.notes.get('Plan')!.replace('account ', '');
    expect(key.startsWith(`rk_${account}_`)).toBe(true);
    const res = await fetch(`${started.rows.get('HTTP')}/api/retail/product?asin=B0FXTUS001`, { headers: { 'API-KEY': key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"development";q=200;w=2');
    expect(res.headers.get('x-units-remaining')).toBe('999');
  });

  it('prints the gRPC addresses and a service token that opens the core and the watcher', async () => {
    const token = started.rows.get('Service token')!;
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(started.notes.get('Service token')).toBe('gRPC: authorization: Bearer <token>; new every start, set SERVICE_TOKEN to keep one');
    const core = started.rows.get('gRPC core')!;
    expect(core).toMatch(/^127\.0\.0\.1:\d+$/);
    const product = await createClient(RetailService, createGrpcTransport({ baseUrl: `http://${core}`, interceptors: [withToken(token)] })).getProduct({ asin: 'B0FXTUS001', domain: Domain.US });
    expect(product.retailProduct?.title).toBeTruthy();
    const refused = await createClient(RetailService, createGrpcTransport({ baseUrl: `http://${core}`, interceptors: [withToken('not-the-token')] }))
      .getProduct({ asin: 'B0FXTUS001', domain: Domain.US })
      .catch((error: unknown) => ConnectError.from(error));
    expect((refused as ConnectError).code).toBe(Code.Unauthenticated);

    const watcher = started.rows.get('gRPC watcher')!;
    const account = started.notes.get('Plan')!.replace('account ', '');
    expect(started.notes.get('gRPC watcher')).toBe(`retail.v1.WatchService, with x-retail-account: ${account}`);
    const watches = await createClient(WatchService, createGrpcTransport({ baseUrl: `http://${watcher}`, interceptors: [withToken(token)] }))
      .listWatches({}, { headers: { 'x-retail-account': account } });
    expect(watches.retailWatches?.watches).toEqual([]);
    // The paste-ready grpcurl line carries the same token and address.
    expect(started.banner).toContain(`grpcurl -plaintext -H "authorization: Bearer ${token}" -d '{"asin":"0131103628","domain":"DOMAIN_US"}' ${core} retail.v1.RetailService/GetProduct`);
  });
});

describe('npm run demo', () => {
  let started: Started;
  const token = DEMO_TOKEN;
  beforeAll(() => {
    started = demo!;
  });

  it('prints the catalogue, the token it was given and the development plan, and links the catalogue from the landing page', async () => {
    const base = started.rows.get('HTTP')!;
    expect(started.rows.get('Demo catalogue')).toBe(`${base}/demo`);
    expect(started.rows.get('Service token')).toBe(token);
    expect(started.notes.get('Service token')).toBe('gRPC: authorization: Bearer <token>; from SERVICE_TOKEN');
    expect(started.rows.get('Plan')).toBe('development: 100 requests/s, bursts of 200; 1000 units');
    expect(started.banner.split('\n')[0]).toMatch(/^Retail Data API demo is running OFFLINE: every answer comes from recordings on this machine \(replay server http:\/\/127\.0\.0\.1:\d+/);
    const landing = await (await fetch(`${base}/`)).text();
    expect(landing).toContain('<a href="/demo">Demo catalogue</a>');
  });

  it('prints calls that work as pasted: the sample product is one the recordings answer', async () => {
    const curl = /curl -s -H "API-KEY: (\S+)" "(\S+)"/.exec(started.banner);
    expect(curl).not.toBeNull();
    const res = await fetch(curl![2]!, { headers: { 'API-KEY': curl![1]! } });
    expect(res.status).toBe(200);
  });
});
