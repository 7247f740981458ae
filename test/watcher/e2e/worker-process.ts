/**
 * A real watcher process (`watcher/src/main.ts`, as `npm run start:watcher` runs it) in the worker
 * role, for the tests that need separate processes: two replicas competing, one killed with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { until } from './world.js';

const MAIN = fileURLToPath(new URL('../../../watcher/src/main.ts', import.meta.url));

/** Short BullMQ locks, so a killed worker's job runs again within seconds rather than a minute. */
export const JOB_LOCK_MS = 1_500;
export const STALLED_CHECK_MS = 500;

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Resolves with the exit code (null after a signal) when the process has ended, however. */
  readonly exited: Promise<number | null>;
  kill(): Promise<void>;
  /** SIGTERM, waiting for the graceful exit. */
  stop(): Promise<number | null>;
}

export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      WATCHER_ROLE: 'worker',
      PORT: '0',
      HOST: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WATCHER_JOB_LOCK_MS: String(JOB_LOCK_MS),
      WATCHER_STALLED_CHECK_MS: String(STALLED_CHECK_MS),
      WATCHER_SHUTDOWN_GRACE_MS: '5000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean));
  child.stdout.setEncoding('utf8').on('data', collect);
  child.stderr.setEncoding('utf8').on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await until(() => lines.some((line) => line.includes('watcher started')) || child.exitCode !== null, 'the watcher process to start', 30_000);
  if (child.exitCode !== null) throw new Error(`the watcher process exited with ${child.exitCode}:\n${lines.join('\n')}`);
  return {
    child,
    lines,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
