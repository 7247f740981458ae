/**
 * The REST deployment as a process: environment, /healthz, /readyz following the core's
 * grpc.health.v1 answer, and a metered route answering JSON.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedCore, startCore } from '../../../test/harness/core.js';
import { freePort } from '../../../test/harness/redis.js';

const TOKEN = 'main-test-service-token';
let core: StartedCore;
let child: ChildProcess;
let base: string;

async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

beforeAll(async () => {
  core = await startCore({ serviceToken: TOKEN });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CORE_ADDRESS: core.address, SERVICE_TOKEN: TOKEN, LEDGER_REDIS_URL: '', REDIS_URL: '' },
    stdio: 'ignore',
  });
  await waitForHttp(`${base}/healthz`);
});

afterAll(async () => {
  child?.kill('SIGTERM');
  await core?.close().catch(() => undefined);
});

describe('REST gateway deployment (main.ts)', () => {
  it('is live, ready while the core is serving, and answers metered routes with the envelope', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    // The harness core has no marketplace and has fetched nothing: the body says so, readiness does not depend on it.
    expect(await ready.json()).toEqual({ status: 'ready', marketplace: 'not checked yet' });
    const unauthenticated = await fetch(`${base}/api/retail/product?asin=B0TEST0001`);
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({ success: false, errors: [{ code: 401, message: 'API key is invalid or missing' }] });
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  });

  it('turns not ready when the core goes away', async () => {
    await core.close();
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ status: 'not ready', marketplace: 'unknown: the core did not answer' });
  });
});
