/**
 * Protocol-level refusals (issue 12, defect 3) on every HTTP server the project runs: the REST,
 * GraphQL, MCP and console deployments as real processes and `npm start`'s one process, over raw
 * sockets. Each answers an oversized head, a non-ASCII request line, a garbage line and a bad header
 * with its status and the error envelope, then closes; none reaches a route, so nothing is charged
 * on the shared Redis ledger.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { loadAppConfig } from '../../app/src/config.js';
import { type RunningStack, startStack } from '../../app/src/stack.js';
import { malformedRequests, rawRequest } from '../harness/raw-http.js';
import { freePort, redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { createReplayServer, type ReplayServer } from '../replay/server.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'protocol-refusals-service-token';
const UNITS = 10;

/** Each deployment's entry point and a metered (or session) route of its own. */
const DEPLOYMENTS = [
  { name: 'rest', main: 'gateways/rest/src/main.ts', path: '/api/retail/product?asin=B0FXTUS001' },
  { name: 'graphql', main: 'gateways/graphql/src/main.ts', path: '/api/graphql' },
  { name: 'mcp', main: 'gateways/mcp/src/main.ts', path: '/api/mcp' },
  { name: 'console', main: 'gateways/console/src/main.ts', path: '/console/api/session' },
] as const;

async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    if (await fetch(url).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

describe.skipIf(missing !== null)('protocol-level refusals on every server', () => {
  let redis: RedisServer;
  let metering: MeteringInstance;
  let accountId: string;
  let key: string;
  const children: ChildProcess[] = [];
  const ports = new Map<string, number>();
  let replay: ReplayServer;
  let stack: RunningStack;

  beforeAll(async () => {
    redis = await startRedis();
    metering = await createMetering({ redisUrl: redis.url });
    ({ accountId } = await metering.admin.createAccount({ units: UNITS }));
    ({ key } = await metering.admin.createKey(accountId, { label: 'protocol-refusals' }));
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      SERVICE_TOKEN: TOKEN,
      // Nothing listens there: refused requests never get as far as the core.
      CORE_ADDRESS: `127.0.0.1:${await freePort()}`,
      LEDGER_REDIS_URL: redis.url,
      CONSOLE_SESSION_SECRET: 'protocol-refusals-secret-0123456789abcdef',
      CONSOLE_SECURE_COOKIES: 'false',
    };
    await Promise.all(
      DEPLOYMENTS.map(async ({ name, main }) => {
        const port = await freePort();
        ports.set(name, port);
        const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main], { cwd: REPO, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
        children.push(child);
        await waitForHttp(`http://127.0.0.1:${port}/healthz`, child);
      }),
    );
    replay = await createReplayServer({ corpusDirs: [`${REPO}test/fixtures/pages`] });
    const stackEnv = { PORT: '0', GRPC_PORT: '0', MARKETPLACE_ORIGIN: replay.origin, LOG_LEVEL: 'silent', LEDGER_REDIS_URL: redis.url, WATCHER_DATA_DIR: mkdtempSync(join(tmpdir(), 'refusals-watcher-')) };
    stack = await startStack({ ...loadAppConfig(stackEnv), marketplaceOrigin: replay.origin }, stackEnv);
    ports.set('npm start', Number(new URL(stack.url).port));
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await stack?.stop();
    await replay?.close();
    await metering?.close();
    await redis?.stop();
  });

  const cases = [...DEPLOYMENTS, { name: 'npm start', path: '/api/retail/product?asin=B0FXTUS001' }].flatMap(({ name, path }) =>
    malformedRequests(path, { 'API-KEY': 'KEY' }).map((request) => ({ server: name, ...request })),
  );

  it.each(cases)('$server: $name → $status with the envelope, then closed', async ({ server, payload, status, echo }) => {
    const withKey = Buffer.from(payload.toString('latin1').replace('API-KEY: KEY', `API-KEY: ${key}`), 'latin1');
    const answer = await rawRequest(ports.get(server)!, withKey);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    const body = JSON.parse(answer.body) as { errors: { message: string }[] };
    expect(body).toEqual({ success: false, errors: [{ code: status, message: expect.any(String) }] });
    expect(body.errors[0]!.message).not.toContain(echo);
    expect(answer.closedByServer).toBe(true);
  });

  it('charged nothing and reached no marketplace page; a well-formed call then charges one unit', async () => {
    expect((await metering.admin.summary(accountId)).balance).toBe(UNITS);
    // The core's start-up probe of /robots.txt aside (docs/resilience.md, Readiness), no request reached the marketplace.
    expect(replay.requests.filter((request) => request.path !== '/robots.txt')).toHaveLength(0);
    // The ledger under observation does move for a real call (so the check above can fail).
    const ok = await fetch(`${stack.url}/api/retail/product?asin=B0FXTUS001`, { headers: { 'API-KEY': key } });
    expect(ok.status).toBe(200);
    expect((await metering.admin.summary(accountId)).balance).toBe(UNITS - 1);
  });
});
