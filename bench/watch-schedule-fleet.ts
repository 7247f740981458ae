/**
 * Watcher worker processes for bench/watch-schedule.ts: real child processes (`fork`, so they talk
 * over IPC) running watch-schedule-worker.ts, started together, marked, asked for their reports and
 * stopped together.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromWorker, ToWorker, WorkerEnvironment, WorkerReport, WorkerTotals } from './watch-schedule-protocol.js';

export interface WorkerFleet {
  readonly pids: readonly number[];
  /** Per worker: products whose schedules it upserted at start, and how long that took. */
  readonly started: ReadonlyArray<{ schedulesSynced: number; syncMs: number }>;
  /** Starts the measured span in every worker. */
  mark(): void;
  /** What every worker did since `mark`. */
  report(): Promise<WorkerReport[]>;
  /** Graceful stop (running refreshes finish); the lifetime totals of every worker. */
  stop(): Promise<WorkerTotals[]>;
  /** SIGKILL whatever still runs (cleanup after a failure). */
  kill(): void;
}

const WORKER_SCRIPT = fileURLToPath(new URL('./watch-schedule-worker.ts', import.meta.url));

/** The next message of `type` from the child; rejects if it exits or reports a failure first. */
function nextMessage<T extends FromWorker['type']>(child: ChildProcess, type: T): Promise<Extract<FromWorker, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== type && message.type !== 'failed') return;
      cleanup();
      if (message.type === 'failed') reject(new Error(`worker ${child.pid}: ${message.message}`));
      else resolve(message as Extract<FromWorker, { type: T }>);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`worker ${child.pid} exited with ${code} before sending "${type}"`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Starts `count` workers; `WORKER_NODE_OPTIONS` adds node flags (e.g. --cpu-prof --cpu-prof-dir=…). */
export async function startWorkerFleet(count: number, env: WorkerEnvironment): Promise<WorkerFleet> {
  const flags = process.env.WORKER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const children = Array.from({ length: count }, () =>
    fork(WORKER_SCRIPT, [], { execArgv: [...flags, '--conditions=source', '--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const tell = (message: ToWorker) => children.forEach((child) => child.send(message));
  const kill = () => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
  try {
    const started = await Promise.all(children.map((child) => nextMessage(child, 'ready')));
    return {
      pids: children.map((child) => child.pid!),
      started: started.map(({ schedulesSynced, syncMs }) => ({ schedulesSynced, syncMs })),
      mark: () => tell({ type: 'mark' }),
      async report() {
        const replies = children.map((child) => nextMessage(child, 'report'));
        tell({ type: 'report' });
        return (await Promise.all(replies)).map(({ report }) => report);
      },
      async stop() {
        const replies = children.map((child) => nextMessage(child, 'stopped'));
        const exits = children.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null))));
        tell({ type: 'stop' });
        const totals = (await Promise.all(replies)).map(({ totals }) => totals);
        await Promise.all(exits);
        return totals;
      },
      kill,
    };
  } catch (error) {
    kill();
    throw error;
  }
}
