/**
 * `npm start` stopped by something the person who started it can fix says so in one line that names
 * the port or the variable and what to do, and exits 2: no stack trace. Each case starts the real
 * entry point as a separate process; the ports are held by a listener of this test.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'start-failures-'));

/** `entry`: npm start's by default; the core's and the watcher's own (start:core, start:watcher) too. */
function start(env: Record<string, string>, entry = 'app/src/main.ts'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', entry],
      {
        cwd: ROOT,
        timeout: 45_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          LOG_LEVEL: 'silent',
          CONSOLE_SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
          WATCHER_DATA_DIR: join(dataDir, String(Math.random())),
          PORT: '0',
          GRPC_PORT: '0',
          ...env,
        },
      },
      (error, _stdout, stderr) => resolvePromise({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
    );
  });
}

let held: Server;
let port: number;

beforeAll(async () => {
  held = createServer();
  await new Promise<void>((resolvePromise) => held.listen(0, '127.0.0.1', resolvePromise));
  port = (held.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolvePromise) => held.close(resolvePromise));
  rmSync(dataDir, { recursive: true, force: true });
});

/** The last line of what the process wrote, and that nothing before it was a stack trace. */
function oneLine(stderr: string): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  return stderr.trim().split('\n').at(-1)!;
}

describe('npm start stopped by a port another process holds', () => {
  it.each([
    ['PORT', 'HTTP: REST, GraphQL, MCP, console'],
    ['GRPC_PORT', 'the gRPC core'],
    ['WATCHER_GRPC_PORT', 'the gRPC watcher'],
  ])('%s: names the port and the variable, exit 2', async (variable, listener) => {
    const { code, stderr } = await start({ [variable]: String(port) });
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(`port ${port} (${variable}, ${listener}) is already in use on 127.0.0.1: stop the process that listens there (ss -ltnp 'sport = :${port}') or set ${variable} to another port (0 picks a free one)`);
  }, STARTS);
});

describe('npm start stopped by a setting that cannot work', () => {
  it('HOST that is not an address of this machine', async () => {
    const { code, stderr } = await start({ HOST: '192.0.2.1' });
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe('192.0.2.1 is not an address of this machine, so nothing can listen there: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for every interface)');
  });

  it('DATABASE_URL without WEBHOOK_SECRET_KEY', async () => {
    const { code, stderr } = await start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'invalid webhooks configuration:',
      '  - WEBHOOK_SECRET_KEY is not set: with DATABASE_URL (no data directory) webhook secrets cannot be stored without it; set it to base64 of 32 random bytes (openssl rand -base64 32), the same on every replica',
    ]);
  });

  it('DATABASE_URL naming a server that does not answer', async () => {
    const closed = await closedPort();
    const { code, stderr } = await start({ DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/retail`, WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') });
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(`DATABASE_URL names a server that does not answer (ECONNREFUSED 127.0.0.1:${closed}): start it, correct DATABASE_URL, or unset it to keep watches and jobs in the embedded PGlite (WATCHER_DATA_DIR)`);
  });
});

/** A start that gets as far as its servers takes 10 to 30 s on the shared two-core machine. */
const STARTS = 90_000;

/** A port nothing listens on (it was free a moment ago). */
function closedPort(): Promise<number> {
  return new Promise<number>((resolvePromise) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolvePromise(free));
    });
  });
}

describe('npm start stopped by a Redis that does not answer (it used to wait for ever, retrying)', () => {
  it.each(['REDIS_URL', 'LEDGER_REDIS_URL', 'CACHE_REDIS_URL', 'QUEUE_REDIS_URL'])('%s: names the URL and the variable, exit 2', async (variable) => {
    const closed = await closedPort();
    const { code, stderr } = await start({ [variable]: `redis://127.0.0.1:${closed}` });
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(`${variable} names a server that does not answer (ECONNREFUSED 127.0.0.1:${closed}): start it, correct ${variable}, or unset it to keep this in the process`);
  }, STARTS);
});

describe('the core and the watcher on their own, stopped by a port another process holds', () => {
  const SERVICE_TOKEN = 'a-service-token-of-at-least-32-characters';

  it('start:core: names GRPC_PORT, exit 2', async () => {
    const { code, stderr } = await start({ SERVICE_TOKEN, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port) }, 'core/src/main.ts');
    expect(code).toBe(2);
    expect(stderr, "grpc-js's own bind-failure line is dropped: the line below says it").not.toContain('No address added');
    expect(oneLine(stderr)).toBe(`port ${port} (GRPC_PORT, the gRPC core) is already in use on 127.0.0.1: stop the process that listens there (ss -ltnp 'sport = :${port}') or set GRPC_PORT to another port (0 picks a free one)`);
  }, STARTS);

  it.each([
    ['GRPC_PORT', 'the gRPC watcher', { PORT: '0' }],
    ['PORT', "the watcher's probes", { GRPC_PORT: '0' }],
  ])('start:watcher: names %s, exit 2', async (variable, listener, others) => {
    const env = { SERVICE_TOKEN, HOST: '127.0.0.1', GRPC_HOST: '127.0.0.1', ...others, [variable]: String(port) };
    const { code, stderr } = await start(env, 'watcher/src/main.ts');
    expect(code).toBe(2);
    expect(stderr).not.toContain('No address added');
    expect(oneLine(stderr)).toBe(`port ${port} (${variable}, ${listener}) is already in use on 127.0.0.1: stop the process that listens there (ss -ltnp 'sport = :${port}') or set ${variable} to another port (0 picks a free one)`);
  }, STARTS);
});

/**
 * The standalone deployables (start:core, start:watcher, each gateway's and the console's main), as a
 * pod runs them: a Redis or PostgreSQL URL that points nowhere used to leave them retrying behind a
 * "listening" (the core, the gateways, the console) or hanging; now one line, exit 2, the password in
 * the URL never printed. SERVICE_TOKEN and the console's secret are there so that only the URL is wrong.
 */
describe('a standalone process stopped by a server its URL names that does not answer', () => {
  const common = {
    SERVICE_TOKEN: 'a-service-token-of-at-least-32-characters',
    HOST: '127.0.0.1',
    GRPC_HOST: '127.0.0.1',
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  };
  const cacheOtherwise = 'unset it to keep the page cache in memory';
  const queueOtherwise = 'unset it (with no Redis URL at all the queues and the ledger stay in this process)';
  const ledgerOtherwise = 'unset it to keep the ledger in this process (one replica only)';
  const GATEWAYS = ['gateways/rest/src/main.ts', 'gateways/graphql/src/main.ts', 'gateways/mcp/src/main.ts', 'gateways/console/src/main.ts'];
  const cases: Array<[entry: string, variable: string, scheme: string, otherwise: string]> = [
    ['core/src/main.ts', 'CACHE_REDIS_URL', 'redis', cacheOtherwise],
    ['core/src/main.ts', 'REDIS_URL', 'redis', cacheOtherwise],
    ['watcher/src/main.ts', 'QUEUE_REDIS_URL', 'redis', queueOtherwise],
    ['watcher/src/main.ts', 'REDIS_URL', 'redis', queueOtherwise],
    ['watcher/src/main.ts', 'CACHE_REDIS_URL', 'redis', "unset it (with no Redis URL at all the page archive's hand-off stays in this process)"],
    ['watcher/src/main.ts', 'DATABASE_URL', 'postgres', 'set WATCHER_DATA_DIR instead for the embedded PGlite'],
    ...GATEWAYS.flatMap((entry) => [
      [entry, 'LEDGER_REDIS_URL', 'redis', ledgerOtherwise] as [string, string, string, string],
      [entry, 'REDIS_URL', 'redis', ledgerOtherwise] as [string, string, string, string],
    ]),
  ];

  it.each(cases)('%s with a dead %s: one line naming it and the address, no password, exit 2', async (entry, variable, scheme, otherwise) => {
    const closed = await closedPort();
    const began = Date.now();
    const { code, stderr } = await start({ ...common, PORT: String(closed), [variable]: `${scheme}://user:secret@127.0.0.1:${closed}/0` }, entry);
    expect(code).toBe(2);
    // A refused port answers at once: the bound is the process's own start on a busy machine, not the probe's timeout.
    expect(Date.now() - began).toBeLessThan(40_000);
    expect(stderr).not.toContain('secret');
    expect(oneLine(stderr)).toBe(`${variable} names a server that does not answer (ECONNREFUSED 127.0.0.1:${closed}): start it, correct ${variable}, or ${otherwise}`);
  }, STARTS);

  // The ledger's record is optional at start (docs/metering.md): only a host that does not exist stops a process for it.
  it.each([...GATEWAYS, 'watcher/src/main.ts'])('%s with LEDGER_DATABASE_URL naming a host that does not exist: one line, no password, exit 2', async (entry) => {
    const closed = await closedPort();
    const { code, stderr } = await start({ ...common, PORT: String(closed), LEDGER_DATABASE_URL: 'postgres://user:secret@no-such-host.invalid:5432/ledger' }, entry);
    expect(code).toBe(2);
    expect(stderr).not.toContain('secret');
    expect(oneLine(stderr)).toBe("LEDGER_DATABASE_URL names a server that does not answer (ENOTFOUND no-such-host.invalid:5432): start it, correct LEDGER_DATABASE_URL, or unset it to run without the ledger's record");
  }, STARTS);
});
