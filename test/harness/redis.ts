/**
 * Real redis-server processes for tests and benchmarks: one node, or a 3-node Cluster, each on free
 * loopback ports (never 6379, the shared instance), without persistence, in a temporary directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function which(binary: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Null when redis-server is installed; otherwise the reason tests should print when they skip. */
export function redisMissing(): string | null {
  return which('redis-server') ? null : 'redis-server is not installed (apt-get install redis-server); Redis ledger tests skipped';
}

export function redisClusterMissing(): string | null {
  return redisMissing() ?? (which('redis-cli') ? null : 'redis-cli is not installed; Redis Cluster tests skipped');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        if (port && port !== 6379) resolve(port);
        else freePort().then(resolve, reject);
      });
    });
  });
}

/** Sends one inline command and resolves with the raw reply (enough for PING and CLUSTER INFO). */
function rawCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.on('connect', () => socket.write(command + '\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (/\r\n$/.test(reply) && (!reply.startsWith('$') || reply.split('\r\n').length > 2)) socket.end();
    });
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function spawnRedis(port: number, dir: string, extra: string[] = []): ChildProcess {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning', ...extra],
    { stdio: 'ignore' },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (the "ledger down" case); idempotent. */
  stop(): Promise<void>;
  /** SIGSTOP: the server keeps its connections open and answers nothing (a frozen ledger). */
  freeze(): void;
  /** SIGCONT: the server works through what it was sent while frozen. */
  thaw(): void;
  /**
   * SIGKILL, then a new server on the same port and directory. With `persistent` the data survives
   * (append-only file, fsync on every write), as on a production ledger; without it the data is gone.
   */
  restart(): Promise<void>;
}

export interface StartRedisOptions {
  /** Bring a stopped server back at the same address. */
  readonly port?: number;
  /** Append-only file with fsync on every write, so `restart()` keeps the data. */
  readonly persistent?: boolean;
}

/** Starts redis-server on a free port (or the given one), without persistence unless asked. */
export async function startRedis(portOrOptions?: number | StartRedisOptions): Promise<RedisServer> {
  const options = typeof portOrOptions === 'number' ? { port: portOrOptions } : (portOrOptions ?? {});
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const port = options.port ?? (await freePort());
  if (port === 6379) throw new Error('6379 is the shared Redis; tests never use it');
  const extra = options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : [];
  const launch = async () => {
    const started = spawnRedis(port, dir, extra);
    await waitFor(async () => (await rawCommand(port, 'PING')).startsWith('+PONG'), `redis-server on ${port}`);
    return started;
  };
  let child = await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGCONT');
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    async restart() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = await launch();
    },
  };
}

export interface RedisCluster {
  /** Startup nodes as "127.0.0.1:port". */
  readonly nodes: readonly string[];
  stop(): Promise<void>;
}

/** Three masters, no replicas, slots spread by `redis-cli --cluster create`. */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  const children = ports.map((port) =>
    spawnRedis(port, dir, ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000']),
  );
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await waitFor(async () => (await rawCommand(port, 'PING')).startsWith('+PONG'), `cluster node ${port}`);
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    const created = spawnSync('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`);
    for (const port of ports) {
      await waitFor(async () => (await rawCommand(port, 'CLUSTER INFO')).includes('cluster_state:ok'), `cluster state ok on ${port}`);
    }
    return { nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
