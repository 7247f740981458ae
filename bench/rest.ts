/**
 * REST full-path benchmark: GET /api/retail/product through key check, rate limit, hold, gRPC to
 * the core (replay server behind it, page cache warm when the core caches), settle and render,
 * beside a bare express handler that returns the same JSON bytes, with the same autocannon client
 * in the same run. Prints throughput and latency (p50, p99) of both and the ratio.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/rest.ts
 *   BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 10), BENCH_ASIN (default B01GAWQSFW), BENCH_LEDGER=redis
 *   BENCH_WARMUP (seconds of unmeasured load before each measurement, default 2)
 *   BENCH_CASES (comma list of bare, stub, real; default all three: one case alone, e.g. under --cpu-prof)
 *   BENCH_COALESCE (on,off: the stub case once per entry against the same core process; bench/coalescing.ts)
 *   CORE_NODE_OPTIONS (extra node flags for the stub core's process, e.g. --cpu-prof)
 *   BENCH_ACCESS_LOG=on (the gateways' access log in front of the REST mount, to price it)
 *   BENCH_OBSERVE=on (the deployments' request span, metrics and access log, observeRequests, in front)
 *   BENCH_TELEMETRY=on (an OpenTelemetry SDK recording every span and metric: bench/telemetry-on.ts)
 *   BENCH_PROFILE=stages (a CPU profile of this process over each measured run, summarized by
 *   stage on stderr and in the JSON: bench/profile-stages.ts; the profiler's own cost inflates the CPU
 *   figures), BENCH_PROFILE_DIR (where to write each run's .cpuprofile as well)
 */
import { telemetryOn } from './telemetry-on.js'; // first: the SDK registers before any gateway module runs
import type { AddressInfo } from 'node:net';
import express from 'express';
import { type Stack, startStack } from '../test/harness/stack.js';
import { restDriver } from '../test/contract/drivers/rest.js';
import { startStubCoreProcess } from './stub-core.js';
import { accessLogMounts } from './access-log-mount.js';
import { type Measured, measureLoad } from './autocannon.js';
import { COALESCE_MODES, type Coalescing, modeLabel, withCoalescing } from './coalescing.js';

const seconds = Number(process.env.BENCH_SECONDS) || 8;
const connections = Number(process.env.BENCH_CONNECTIONS) || 10;
const asin = process.env.BENCH_ASIN || 'B01GAWQSFW';
const warmupSeconds = process.env.BENCH_WARMUP === undefined ? 2 : Number(process.env.BENCH_WARMUP);

function measure(name: string, url: string, headers: Record<string, string>, corePid?: number): Promise<Measured> {
  return measureLoad(name, { url, headers, seconds, connections, warmupSeconds, ...(corePid !== undefined ? { corePid } : {}) });
}

const ledger = process.env.BENCH_LEDGER === 'redis' ? 'redis' : 'memory';

const cases = new Set((process.env.BENCH_CASES || 'bare,stub,real').split(',').map((c) => c.trim()));

/** Warms a stack (key, page cache) and measures the REST full path against it when `measured`. */
async function runAgainst(
  name: string,
  stack: Stack,
  measured: boolean,
  corePid?: number,
): Promise<{ measured?: Measured & { coalescing?: Coalescing }; body: string; cache: string | null }> {
  const ticker = setInterval(() => stack.advanceClock(100), 100);
  try {
    const { accountId } = await stack.metering.admin.createAccount({ units: 1_000_000_000, plan: 'unlimited' });
    const { key } = await stack.metering.admin.createKey(accountId);
    const url = `${stack.baseUrl}/api/retail/product?asin=${asin}`;
    await fetch(url, { headers: { 'API-KEY': key } }); // warm the page cache
    const warm = await fetch(url, { headers: { 'API-KEY': key } });
    const body = await warm.text();
    if (warm.status !== 200) throw new Error(`${name}: warm-up answered ${warm.status}: ${body.slice(0, 200)}`);
    const load = measured ? await withCoalescing(stack.core, () => measure(name, url, { 'API-KEY': key }, corePid)) : undefined;
    return { ...(load ? { measured: load } : {}), body, cache: warm.headers.get('x-cache') };
  } finally {
    clearInterval(ticker);
  }
}

// 1. The real core behind the gateway: the record as the core renders it (and its cache status).
const realStack = await startStack({ mounts: [...accessLogMounts(), restDriver.mount], ledger });
let real: Awaited<ReturnType<typeof runAgainst>>;
try {
  real = await runAgainst('REST full path, real core', realStack, cases.has('real'));
} finally {
  await realStack.close();
}

// 2. The same record served by the stub core from memory, in its own process: the gateway's whole
//    path (key, rate limit, hold, gRPC, settle, render) with the core's work reduced to a cache hit's.
const stubs: Array<Awaited<ReturnType<typeof runAgainst>>> = [];
if (cases.has('stub')) {
  const record = (JSON.parse(real.body) as { data: { retailProduct: Record<string, unknown> } }).data.retailProduct;
  const core = await startStubCoreProcess(record);
  try {
    for (const coalesce of COALESCE_MODES) {
      const stubStack = await startStack({ mounts: [...accessLogMounts(), restDriver.mount], ledger, coreAddress: core.address, coalesce });
      try {
        stubs.push(await runAgainst(`REST full path, core answering from memory (cache-hit cost), ${modeLabel(coalesce)}`, stubStack, true, core.pid));
      } finally {
        await stubStack.close();
      }
    }
  } finally {
    await core.stop();
  }
}
const stub = stubs[0];

// 3. Bare express returning the same bytes.
let baseline: Measured | undefined;
if (cases.has('bare')) {
  const bare = express();
  bare.get('/api/retail/product', (_req, res) => {
    res.type('application/json').send(real.body);
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  baseline = await measure('bare express', `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/retail/product?asin=${asin}`, {});
  bareServer.close();
}

const ratio = (m?: Measured) => (m && baseline ? Number((m.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)) : undefined);
console.log(
  JSON.stringify(
    {
      when: new Date().toISOString(),
      seconds,
      connections,
      ledger,
      telemetry: telemetryOn,
      observe: process.env.BENCH_OBSERVE === 'on',
      realCoreCacheStatus: real.cache,
      ...(stub ? { sameBody: real.body === stub.body } : {}),
      bodyBytes: Buffer.byteLength(real.body),
      results: [baseline, ...stubs.map((s) => s.measured), real.measured].filter(Boolean),
      ratioGatewayPathToBare: stubs.length > 1 ? stubs.map((s) => ratio(s.measured)) : ratio(stub?.measured),
      ratioRealCoreToBare: ratio(real.measured),
    },
    null,
    2,
  ),
);
