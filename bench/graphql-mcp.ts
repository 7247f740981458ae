/**
 * GraphQL and MCP full-path benchmark: the docs/contract.md product query on POST /api/graphql and a
 * `tools/call retail_product` on POST /api/mcp, each through key check, rate limit, hold, gRPC to a
 * core answering from memory (a cache hit's work), settle and render, beside a bare express handler
 * returning the same JSON bytes, with the same autocannon client (its own process) in the same run.
 *
 *   node --conditions=source --import tsx bench/graphql-mcp.ts
 *   BENCH_SECONDS (default 6), BENCH_CONNECTIONS (default 10), BENCH_WARMUP (seconds, default 2),
 *   BENCH_PROFILE=stages, BENCH_PROFILE_DIR, BENCH_ACCESS_LOG=on, BENCH_OBSERVE=on, BENCH_TELEMETRY=on,
 *   BENCH_COALESCE=on,off (each full path once per entry, on the same core: bench/coalescing.ts) (as bench/rest.ts)
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
import { COALESCE_MODES, modeLabel, withCoalescing } from './coalescing.js';

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
const stacks = await Promise.all(COALESCE_MODES.map((coalesce) => startStack({ mounts: [...accessLogMounts(), graphqlDriver.mount, mcpDriver.mount], coreAddress: core.address, coalesce })));
const ticker = setInterval(() => stacks.forEach((stack) => stack.advanceClock(100)), 100);
try {
  const graphqlBody = JSON.stringify({ query: '{ retailProduct(asin: "0131103628", domain: US) { title price { value currency display } isPrime } }' });
  const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: '0131103628' } } });
  const keys = await Promise.all(stacks.map(async (stack) => {
    const { accountId } = await stack.metering.admin.createAccount({ units: 1_000_000_000, plan: 'unlimited' });
    return (await stack.metering.admin.createKey(accountId)).key;
  }));
  const mcpHeaders = (key: string) => ({ 'API-KEY': key, accept: 'application/json, text/event-stream' });
  const sample = async (baseUrl: string, path: string, body: string, headers: Record<string, string>) => {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return res.text();
  };
  const graphqlSample = await sample(stacks[0]!.baseUrl, '/api/graphql', graphqlBody, { 'API-KEY': keys[0]! });
  const mcpSample = await sample(stacks[0]!.baseUrl, '/api/mcp', mcpBody, mcpHeaders(keys[0]!));

  const bare = express();
  bare.post('/graphql', (_req, res) => void res.type('application/json').send(graphqlSample));
  bare.post('/mcp', (_req, res) => void res.type('application/json').send(mcpSample));
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

  /** A full path on each stack, with how its core calls went (average batch size, share sent in a batch). */
  const fullPaths = async (label: string, path: string, body: string, headers: (key: string) => Record<string, string>) => {
    const measured = [];
    for (const [i, stack] of stacks.entries()) {
      measured.push(await withCoalescing(stack.core, () => measure(`${label}, ${modeLabel(COALESCE_MODES[i])}`, `${stack.baseUrl}${path}`, body, headers(keys[i]!), core.pid)));
    }
    return measured;
  };
  const bareGraphql = await measure('bare express (GraphQL bytes)', `${bareUrl}/graphql`, graphqlBody, {});
  const graphql = await fullPaths('GraphQL full path', '/api/graphql', graphqlBody, (key) => ({ 'API-KEY': key }));
  const bareMcp = await measure('bare express (MCP bytes)', `${bareUrl}/mcp`, mcpBody, {});
  const mcp = await fullPaths('MCP full path', '/api/mcp', mcpBody, mcpHeaders);
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
        results: [bareGraphql, ...graphql, bareMcp, ...mcp],
        ratioGraphqlToBare: graphql.map((m) => ratio(m, bareGraphql)),
        ratioMcpToBare: mcp.map((m) => ratio(m, bareMcp)),
      },
      null,
      2,
    ),
  );
} finally {
  clearInterval(ticker);
  await Promise.all(stacks.map((stack) => stack.close()));
  await core.stop();
}
