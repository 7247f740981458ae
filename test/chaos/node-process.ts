/**
 * Launches a project entry point as its own Node process (as the deployments run it: source
 * condition, tsx), waits until it prints the line that says it is ready, and stops it by its pid.
 * Every process started here is also SIGKILLed when the test process exits, so a failing test
 * never leaves one behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..', '..');

export interface NodeProcess {
  readonly pid: number;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  /** True while the process has not exited. */
  alive(): boolean;
  /** Waits for the exit; resolves with the signal or code. */
  exited(): Promise<string>;
  /** SIGKILL by pid: the crash under test. */
  kill(): Promise<void>;
  /** SIGTERM by pid, SIGKILL after `graceMs`; idempotent. */
  stop(graceMs?: number): Promise<void>;
}

const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) {
    try {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

export async function launchNode(options: {
  /** Entry file relative to the repository root. */
  readonly entry: string;
  readonly env: Record<string, string>;
  /** A line matching this on stdout means ready; its first capture group is returned. */
  readonly ready: RegExp;
  readonly timeoutMs?: number;
}): Promise<{ process: NodeProcess; match: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', options.entry], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'silent', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let output = '';
  const exit = new Promise<string>((done) =>
    child.once('exit', (code, signal) => {
      started.delete(child);
      done(signal ?? `exit ${code}`);
    }),
  );
  const handle: NodeProcess = {
    pid: child.pid ?? -1,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    exited: () => exit,
    async kill() {
      if (handle.alive()) process.kill(handle.pid, 'SIGKILL');
      await exit;
    },
    async stop(graceMs = 3_000) {
      if (!handle.alive()) return;
      process.kill(handle.pid, 'SIGTERM');
      const timer = setTimeout(() => handle.alive() && process.kill(handle.pid, 'SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
  const match = await new Promise<string>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${options.entry} not ready in time:\n${output}`)), options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = options.ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolveReady(found[1] ?? found[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    void exit.then((how) => {
      clearTimeout(timer);
      reject(new Error(`${options.entry} exited (${how}) before it was ready:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await handle.kill();
    throw error;
  });
  return { process: handle, match };
}
