/**
 * `retail listen` as docs/watches.md shows it, against `npm run demo`'s stack (which allows webhooks
 * to this machine): it points a watch's webhook at itself, receives the watch's events as the watcher
 * delivers them, verifies each signature and forwards it, headers included, to the developer's
 * endpoint, where the `standardwebhooks` verifier accepts it too. With `--secret` it refuses a
 * delivery signed with another secret.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DemoStack, startDemoStack } from '../../app/src/demo-stack.js';

const ROOT = resolve(import.meta.dirname, '../..');

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let demo: DemoStack;
let endpoint: Server;
let endpointUrl: string;
const received: Received[] = [];
const dir = mkdtempSync(join(tmpdir(), 'cli-listen-'));
const listeners: ChildProcess[] = [];

beforeAll(async () => {
  demo = await startDemoStack({ PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'silent', WATCHER_DATA_DIR: join(dir, 'watcher'), RETAIL_CORPUS: join(dir, 'no-corpus') });
  endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => endpoint.listen(0, '127.0.0.1', done));
  endpointUrl = `http://127.0.0.1:${(endpoint.address() as { port: number }).port}/hook`;
});
afterEach(() => {
  for (const child of listeners.splice(0)) child.kill('SIGINT');
});
afterAll(async () => {
  await new Promise((done) => endpoint.close(done));
  await demo?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `retail listen` as a user's shell does and resolves once it says it is ready. */
async function listen(args: string[]): Promise<{ output: () => string; url: string }> {
  const child = spawn(process.execPath, ['cli/bin/retail.js', 'listen', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', RETAIL_API_KEY: demo.stack.devKey, RETAIL_BASE_URL: demo.stack.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  listeners.push(child);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`not ready within 30 s: ${out}`)), 30_000);
    child.stdout.on('data', () => {
      const match = /^Ready: listening on (\S+?)[,\s]/m.exec(out);
      if (match) {
        clearTimeout(timer);
        ready(match[1]!);
      }
    });
    child.once('exit', (code) => fail(new Error(`exited with ${code}: ${out}`)));
  });
  return { output: () => out, url };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${demo.stack.url}${path}`, { ...init, headers: { 'API-KEY': demo.stack.devKey, 'content-type': 'application/json', ...init.headers } }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: Record<string, { id: string; status: string; webhook?: { url: string } }> } }));

describe('retail listen', () => {
  it('receives a watch\'s event as the watcher delivers it, verifies it and forwards it signed', async () => {
    // A watch on a product the demo does not have: its first refresh pauses it (PRODUCT_NOT_FOUND)
    // before the listener exists; resuming it refreshes again, and that event goes to the listener.
    const created = await api('/api/retail/watches', { method: 'POST', body: JSON.stringify({ asin: 'B0NOTFOUND', domain: 'US', intervalSeconds: 3600 }) });
    expect(created.status).toBe(200);
    const watchId = created.body.data.retailWatch!.id;
    for (let i = 0; (await api(`/api/retail/watches/${watchId}`)).body.data.retailWatch!.status !== 'PAUSED'; i++) {
      if (i > 200) throw new Error('the watch was not paused within 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const listener = await listen(['--watch', watchId, '--forward-to', endpointUrl]);
    const secret = /signing secret (whsec_\S+)/.exec(listener.output())![1]!;
    const watch = await api(`/api/retail/watches/${watchId}`);
    expect(watch.body.data.retailWatch!.webhook!.url).toBe(listener.url);

    expect((await api(`/api/retail/watches/${watchId}`, { method: 'PATCH', body: JSON.stringify({ status: 'ACTIVE' }) })).status).toBe(200);
    const forwarded = await until('forwarded event', () => received.find((r) => r.body.includes(watchId)));
    const event = new Webhook(secret).verify(forwarded.body, forwarded.headers as Record<string, string>) as { type: string; watchId: string };
    expect(event).toMatchObject({ type: 'PRODUCT_NOT_FOUND', watchId });
    await until('printed event', () => (/PRODUCT_NOT_FOUND {2}\S+ {2}signature verified/.test(listener.output()) && listener.output().includes(`-> ${endpointUrl}: 200`) ? true : undefined));
  }, 60_000);

  it('receives the test event a watch is asked to send (POST /api/retail/watches/{id}/test-event)', async () => {
    const created = await api('/api/retail/watches', { method: 'POST', body: JSON.stringify({ asin: 'B0FXTUS001', domain: 'US', intervalSeconds: 3600 }) });
    const watchId = created.body.data.retailWatch!.id;
    const listener = await listen(['--watch', watchId]);
    const sent = await api(`/api/retail/watches/${watchId}/test-event`, { method: 'POST' });
    expect(sent.status).toBe(200);
    expect(sent.body.data.retailWatchEvent).toMatchObject({ type: 'WEBHOOK_TEST', watchId });
    await until('printed test event', () => (new RegExp(`WEBHOOK_TEST {2}\\S+ {2}signature verified\\n {2}\\{[^\\n]*"watchId":"${watchId}"`).test(listener.output()) ? true : undefined));
    // Without a webhook there is nothing to send to: a 400 that says so.
    const bare = await api('/api/retail/watches', { method: 'POST', body: JSON.stringify({ asin: 'B0FXTUS001', domain: 'US', intervalSeconds: 7200 }) });
    const refused = await fetch(`${demo.stack.url}/api/retail/watches/${bare.body.data.retailWatch!.id}/test-event`, { method: 'POST', headers: { 'API-KEY': demo.stack.devKey } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('the watch has no webhook');
  }, 60_000);

  it('with --secret, refuses a delivery signed with another secret and takes one signed with it', async () => {
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const listener = await listen(['--secret', secret]);
    const body = JSON.stringify({ id: 'job-1', type: 'JOB_DONE' });
    const post = (key: string) => {
      const at = new Date();
      return fetch(listener.url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(key).sign('msg_1', at, body) } });
    };
    expect((await post(`whsec_${Buffer.alloc(32, 2).toString('base64')}`)).status).toBe(401);
    expect((await post(secret)).status).toBe(204);
    expect(listener.output()).toMatch(/msg_1 {2}signature REFUSED/);
    expect(listener.output()).toMatch(/JOB_DONE {2}msg_1 {2}signature verified/);
  }, 60_000);
});
