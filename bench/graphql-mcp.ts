/**
 * GraphQL and MCP full-path benchmark: the docs/contract.md product query on POST /api/graphql and a
 * `tools/call retail_product` on POST /api/mcp, each through key check, rate limit, hold, gRPC to a
 * core answering from memory (a cache hit's work), settle and render, beside a bare express handler
 * returning the same JSON bytes, with the same autocannon client (its own process) in the same run.
 *
 *   node --conditions=source --import tsx bench/graphql-mcp.ts
 *   BENCH_SECONDS (default 6), BENCH_CONNECTIONS (default 10), BENCH_WARMUP (seconds, default 2),
 *   BENCH_PROFILE=stages, BENCH_PROFILE_DIR, BENCH_ACCESS_LOG=on, BENCH_OBSERVE=on, BENCH_TELEMETRY=on (as bench/rest.ts)
 * Besides req/s and latency it prints the CPU time per request of this process (the gateways) and
 * of the core's process.
 */
import { telemetryOn } from './telemetry-on.js'; // first: the SDK registers before any gateway module runs
import type { AddressInfo } from 'node:net';
import express from 'express';
import { startStack } from '../test/harness/stack.js';
import { graphqlDriver } from '../test/contract/drivers/graphql.js';
import { mcpDriver } from '../test/contract/drivers/mcp.js';
import { accessLogMounts } from './access-log-mount.js';
import { type Measured, measureLoad } from './autocannon.js';
import { startStubCoreProcess } from './stub-core.js';

const seconds = Number(process.env.BENCH_SECONDS) || 6;
const connections = Number(process.env.BENCH_CONNECTIONS) || 10;
const warmupSeconds = process.env.BENCH_WARMUP === undefined ? 2 : Number(process.env.BENCH_WARMUP);

function measure(name: string, url: string, body: string, headers: Record<string, string>, corePid?: number): Promise<Measured> {
  return measureLoad(name, {
    url, method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, seconds, connections, warmupSeconds,
    ...(corePid !== undefined ? { corePid } : {}),
  });
}

/** A product record (wire JSON) of the size real pages give (bullets, images, specifications). */
const PRODUCT = {
  title: 'C Programming Language, 2nd Edition',
  asin: '0131103628',
  url: 'https://www.amazon.com/dp/0131103628',
  isPrime: true,
  isNew: true,
  isInStock: true,
  price: { symbol: '$', value: 35.64, currency: 'USD', display: '$35.64' },
  rating: 4.7,
  ratingsTotal: 5123,
  imageUrls: Array.from({ length: 6 }, (_, i) => `https://images.example/I/${i}.jpg`),
  featureBullets: Array.from({ length: 5 }, (_, i) => `Feature bullet number ${i} with a sentence of ordinary length.`),
  technicalSpecifications: Array.from({ length: 8 }, (_, i) => ({ name: `Spec ${i}`, value: `Value ${i}` })),
};

// The real core in its own process answering from memory (bench/stub-core-process.ts), so this
// process's CPU is the gateways' alone.
const core = await startStubCoreProcess(PRODUCT);
const stack = await startStack({ mounts: [...accessLogMounts(), graphqlDriver.mount, mcpDriver.mount], coreAddress: core.address });
const ticker = setInterval(() => stack.advanceClock(100), 100);
try {
  const { accountId } = await stack.metering.admin.createAccount({ units: 1_000_000_000, plan: 'unlimited' });
  const { key } = await stack.metering.admin.createKey(accountId);
  const graphqlBody = JSON.stringify({ query: '{ retailProduct(asin: "0131103628", domain: US) { title price { value currency display } isPrime } }' });
  const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: '0131103628' } } });
  const mcpHeaders = { 'API-KEY': key, accept: 'application/json, text/event-stream' };
  const sample = async (path: string, body: string, headers: Record<string, string>) => {
    const res = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return res.text();
  };
  const graphqlSample = await sample('/api/graphql', graphqlBody, { 'API-KEY': key });
  const mcpSample = await sample('/api/mcp', mcpBody, mcpHeaders);

  const bare = express();
  bare.post('/graphql', (_req, res) => void res.type('application/json').send(graphqlSample));
  bare.post('/mcp', (_req, res) => void res.type('application/json').send(mcpSample));
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

  const results = [
    await measure('bare express (GraphQL bytes)', `${bareUrl}/graphql`, graphqlBody, {}),
    await measure('GraphQL full path', `${stack.baseUrl}/api/graphql`, graphqlBody, { 'API-KEY': key }, core.pid),
    await measure('bare express (MCP bytes)', `${bareUrl}/mcp`, mcpBody, {}),
    await measure('MCP full path', `${stack.baseUrl}/api/mcp`, mcpBody, mcpHeaders, core.pid),
  ];
  bareServer.close();
  const ratio = (a: Measured, b: Measured) => Number((a.requestsPerSecond / b.requestsPerSecond).toFixed(3));
  console.log(
    JSON.stringify(
      {
        when: new Date().toISOString(),
        seconds,
        connections,
        telemetry: telemetryOn,
        observe: process.env.BENCH_OBSERVE === 'on',
        results,
        ratioGraphqlToBare: ratio(results[1]!, results[0]!),
        ratioMcpToBare: ratio(results[3]!, results[2]!),
      },
      null,
      2,
    ),
  );
} finally {
  clearInterval(ticker);
  await stack.close();
  await core.stop();
}
