/**
 * A ledger redis-server that can be crashed, restarted on the same port with its data, and frozen:
 * AOF with `appendfsync always`, so every acknowledged script survives a SIGKILL (what production
 * runs, per docs/metering.md), in its own temporary directory on a free loopback port.
 * test/harness/redis.ts starts servers without persistence; this is the durable variant.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../harness/redis.js';

export interface DurableRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL, the crash (acknowledged writes are on disk). */
  crash(): Promise<void>;
  /** Starts it again on the same port and directory; resolves when it answers PING. */
  restart(): Promise<void>;
  /** SIGSTOP: the process stays, its socket accepts but nothing answers. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) if (child.pid) process.kill(child.pid, 'SIGKILL');
});

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      socket.destroy();
      resolve(chunk.toString().startsWith('+PONG'));
    });
    socket.on('error', () => resolve(false));
  });
}

export async function startDurableRedis(): Promise<DurableRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'chaos-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  const launch = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--daemonize', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    live.add(started);
    started.once('exit', () => live.delete(started));
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const signal = (name: NodeJS.Signals) => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(child.pid, name);
  };
  const exited = async (c: ChildProcess | undefined) => {
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise((r) => c.once('exit', r));
  };

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async crash() {
      const current = child;
      signal('SIGCONT');
      signal('SIGKILL');
      await exited(current);
    },
    restart: launch,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async stop() {
      const current = child;
      signal('SIGCONT');
      signal('SIGKILL');
      await exited(current);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
