/**
 * The stub core (bench/stub-core-process.ts: the real core answering GetProduct from memory) in a
 * process of its own, and the CPU time a process has used, for benchmarks that report the core's
 * CPU per call beside their own (bench/rest.ts, bench/grpc-call.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface StubCoreProcess {
  readonly address: string;
  readonly pid: number;
  /** Ends the process and waits for it (a `--cpu-prof` profile is written on exit). */
  stop(): Promise<void>;
}

/** Starts the stub core serving `record`; `CORE_NODE_OPTIONS` adds node flags (e.g. --cpu-prof). */
export async function startStubCoreProcess(record: unknown): Promise<StubCoreProcess> {
  const flags = process.env.CORE_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const script = fileURLToPath(new URL('./stub-core-process.ts', import.meta.url));
  const child = spawn(process.execPath, [...flags, '--conditions=source', '--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(record));
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`stub core exited with ${code}`)));
  });
  return {
    address,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** CPU time (user + system) a process has used, in µs (Linux /proc; undefined elsewhere). */
export function processCpuUs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return undefined;
  }
}
