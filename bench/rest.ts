/**
 * REST full-path benchmark: GET /api/retail/product through key check, rate limit, hold, gRPC to
 * the core (replay server behind it, page cache warm when the core caches), settle and render,
 * beside a bare express handler that returns the same JSON bytes, with the same autocannon client
 * in the same run. Prints throughput and latency (p50, p99) of both and the ratio.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/rest.ts
 *   BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 10), BENCH_ASIN (default B01GAWQSFW), BENCH_LEDGER=redis
 */
import { execFile, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { type Stack, startStack } from '../test/harness/stack.js';
import { restDriver } from '../test/contract/drivers/rest.js';

const seconds = Number(process.env.BENCH_SECONDS) || 8;
const connections = Number(process.env.BENCH_CONNECTIONS) || 10;
const asin = process.env.BENCH_ASIN || 'B01GAWQSFW';

/**
 * autocannon runs in its own process (its CLI with --json), so the client does not share the
 * event loop of the servers it measures; the same client measures both sides.
 */
const AUTOCANNON = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));

function autocannon(options: { url: string; headers: Record<string, string> }): Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
}> {
  const args = [AUTOCANNON, '--json', '-c', String(connections), '-d', String(seconds)];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}=${value}`);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return reject(err);
      resolve(JSON.parse(stdout) as never);
    });
  });
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(name: string, url: string, headers: Record<string, string>): Promise<Measured> {
  const result = await autocannon({ url, headers });
  return { name, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

const ledger = process.env.BENCH_LEDGER === 'redis' ? 'redis' : 'memory';

/** Starts a stack, warms it, and measures the REST full path against it. */
async function runAgainst(name: string, stack: Stack): Promise<{ measured: Measured; body: string; cache: string | null }> {
  const ticker = setInterval(() => stack.advanceClock(100), 100);
  try {
    const { accountId } = await stack.metering.admin.createAccount({ units: 1_000_000_000, plan: 'unlimited' });
    const { key } = await stack.metering.admin.createKey(accountId);
    const url = `${stack.baseUrl}/api/retail/product?asin=${asin}`;
    await fetch(url, { headers: { 'API-KEY': key } }); // warm the page cache
    const warm = await fetch(url, { headers: { 'API-KEY': key } });
    const body = await warm.text();
    if (warm.status !== 200) throw new Error(`${name}: warm-up answered ${warm.status}: ${body.slice(0, 200)}`);
    return { measured: await measure(name, url, { 'API-KEY': key }), body, cache: warm.headers.get('x-cache') };
  } finally {
    clearInterval(ticker);
  }
}

// 1. The real core behind the gateway: the record as the core renders it (and its cache status).
const realStack = await startStack({ mounts: [restDriver.mount], ledger });
let real: Awaited<ReturnType<typeof runAgainst>>;
try {
  real = await runAgainst('REST full path, real core', realStack);
} finally {
  await realStack.close();
}

// 2. The same record served by the stub core from memory, in its own process: the gateway's whole
//    path (key, rate limit, hold, gRPC, settle, render) with the core's work reduced to a cache hit's.
const record = (JSON.parse(real.body) as { data: { retailProduct: Record<string, unknown> } }).data.retailProduct;
const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(new URL('./stub-core-process.ts', import.meta.url))], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
child.stdin.end(JSON.stringify(record));
const coreAddress = await new Promise<string>((resolve, reject) => {
  child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  child.once('exit', (code) => reject(new Error(`stub core exited with ${code}`)));
});
const stubStack = await startStack({ mounts: [restDriver.mount], ledger, coreAddress });
let stub: Awaited<ReturnType<typeof runAgainst>>;
try {
  stub = await runAgainst('REST full path, core answering from memory (cache-hit cost)', stubStack);
} finally {
  await stubStack.close();
  child.kill('SIGTERM');
}

// 3. Bare express returning the same bytes.
const bare = express();
bare.get('/api/retail/product', (_req, res) => {
  res.type('application/json').send(stub.body);
});
const bareServer = bare.listen(0, '127.0.0.1');
await new Promise((resolve) => bareServer.once('listening', resolve));
const baseline = await measure('bare express', `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/retail/product?asin=${asin}`, {});
bareServer.close();

console.log(
  JSON.stringify(
    {
      when: new Date().toISOString(),
      seconds,
      connections,
      ledger,
      realCoreCacheStatus: real.cache,
      sameBody: real.body === stub.body,
      bodyBytes: Buffer.byteLength(stub.body),
      results: [baseline, stub.measured, real.measured],
      ratioGatewayPathToBare: Number((stub.measured.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)),
      ratioRealCoreToBare: Number((real.measured.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)),
    },
    null,
    2,
  ),
);
