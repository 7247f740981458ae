/**
 * One measured load for the HTTP benchmarks (bench/rest.ts, bench/graphql-mcp.ts): autocannon in
 * its own process (its CLI with --json, so the client does not share the event loop of the servers
 * it measures; the same client measures every side), an unmeasured warm-up first, and the CPU time
 * per request of this process (the gateway) and of the core's process; BENCH_RATE fixes the offered
 * rate (below). BENCH_PROFILE=stages adds
 * this process's CPU by stage (bench/profile-stages.ts), BENCH_PROFILE_DIR keeps the profiles.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type StageRow, printStages, stageSummary, startProfile } from './profile-stages.js';
import { processCpuUs } from './stub-core.js';

const AUTOCANNON = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));

/**
 * BENCH_RATE: requests per second offered (all connections together) instead of as many as answer.
 * CPU per request depends on throughput (at a higher rate the event loop serves several requests per
 * wake-up), so comparing two versions' CPU per request is fair only at the same rate, one both sustain.
 */
const rate = Number(process.env.BENCH_RATE) || 0;

export interface LoadOptions {
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly seconds: number;
  readonly connections: number;
  /** Seconds of unmeasured load first: without it the JIT's compiling lands in the measured seconds. */
  readonly warmupSeconds: number;
  /** The core's process, whose CPU per request is reported beside this process's. */
  readonly corePid?: number;
}

export interface Measured {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU time (user + system) per request of this process (the gateway, and the core when it runs in it), in µs. */
  cpuUsPerRequest: number;
  /** CPU time per request of the core's own process, when it has one, in µs. */
  coreCpuUsPerRequest?: number;
  /** This process's CPU by stage (BENCH_PROFILE=stages; the profiler's own cost inflates every figure). */
  stages?: StageRow[];
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
}

function autocannon(options: LoadOptions, seconds: number): Promise<AutocannonResult> {
  const args = [AUTOCANNON, '--json', '-c', String(options.connections), '-d', String(seconds)];
  if (rate) args.push('-R', String(rate));
  if (options.method) args.push('-m', options.method);
  if (options.body !== undefined) args.push('-b', options.body);
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return reject(err);
      resolve(JSON.parse(stdout) as AutocannonResult);
    });
  });
}

export async function measureLoad(name: string, options: LoadOptions): Promise<Measured> {
  if (options.warmupSeconds > 0) await autocannon(options, options.warmupSeconds);
  const profiler = process.env.BENCH_PROFILE === 'stages' ? await startProfile() : undefined;
  const cpu = process.cpuUsage();
  const core = options.corePid === undefined ? undefined : processCpuUs(options.corePid);
  const result = await autocannon(options, options.seconds);
  const used = process.cpuUsage(cpu);
  const coreUsed = core === undefined ? undefined : processCpuUs(options.corePid!)! - core;
  const profile = profiler ? await profiler.stop() : undefined;
  if (profile && process.env.BENCH_PROFILE_DIR) writeFileSync(`${process.env.BENCH_PROFILE_DIR}/${name.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(profile));
  const stages = profile ? stageSummary(profile, result.requests.total) : undefined;
  if (stages) printStages(`${name}: CPU of this process by stage (share of busy time, µs per request)`, stages);
  const perRequest = (us: number) => Math.round(us / Math.max(1, result.requests.total));
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpuUsPerRequest: perRequest(used.user + used.system),
    ...(coreUsed !== undefined ? { coreCpuUsPerRequest: perRequest(coreUsed) } : {}),
    ...(stages ? { stages } : {}),
  };
}
